/**
 * The hot path's lookups by key open only the days of the log they are told
 * to (server/webhooks/delivery/log-days.ts), planned once as the worker plans
 * them: the claim the days of the ready set, the recording of a batch and the
 * readying of its chains the batch's days. And nothing is missed for it: a
 * ready row outside the claim's days is left, the claim reports the days at
 * once, and the next claim takes it; a chain with a waiting message outside
 * the finished messages' days is readied over every day.
 */
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeAll, expect, it } from "vitest";
import { executePrepared } from "@/db/prepared";
import { simulate } from "@/server/demo/simulate";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { claimDue, claimStatement, type OutcomeRow, recordStatement } from "@/server/webhooks/delivery/deliver";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { type Days, daysOf, readyingDays } from "@/server/webhooks/delivery/log-days";
import { readyChainHeads, readyChainHeadsStatement } from "@/server/webhooks/delivery/messages";
import { useTestDatabase } from "../support/database";
import { companyWithInterview } from "../support/fixtures";

const test = useTestDatabase();
let companyId: string;
let webhookId: string;

beforeAll(async () => {
  ({ companyId } = await companyWithInterview(test.ctx, "Days"));
  webhookId = (await createWebhook(test.ctx, companyId, { url: "https://hooks.example.com/days" }, { allowTargets: [] })).id;
  // About 500 events over the simulated two weeks, each day's in its partition; every partition of the 30 days kept and the 7 ahead exists.
  await simulate(test.ctx, { companyId, interviews: 0, candidates: 200, bulk: true, seed: 11 });
  while ((await fanOutCompany(test.ctx, companyId)).created > 0);
}, 120_000);

type PlanNode = { "Relation Name"?: string; Alias?: string; "Parent Relationship"?: string; Plans?: PlanNode[] };
/**
 * The plan's nodes outside SubPlans: the claim's one SubPlan into the log, the check of a parked lease
 * (parked-leases.ts, shared with the gauges), is read only for a row whose lease ran out, and opens every day.
 */
const nodesOf = (node: PlanNode): PlanNode[] => (node["Parent Relationship"] === "SubPlan" ? [] : [node, ...(node.Plans ?? []).flatMap(nodesOf)]);
const dayOf = (at: string) => at.slice(0, 10).replaceAll("-", "");

/**
 * The days (`YYYYMMDD`, or `default`) of the log and of the history that `statement`'s lookups aliased `aliases`
 * open, planned once and generically as on the worker's connections, and run (EXPLAIN ANALYZE, rolled back): a day
 * pruned as the statement starts is not in the plan run.
 */
async function daysOpened(statement: SQL, aliases: string[]): Promise<string[]> {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  const literal = (value: unknown) =>
    `'${(Array.isArray(value) ? `{${value.map((element) => `"${element}"`).join(",")}}` : String(value)).replaceAll("'", "''")}'`;
  const session = await test.handle.sql.reserve();
  try {
    await session`begin`;
    await session`set local plan_cache_mode = force_generic_plan`;
    await session.unsafe(`prepare hot_statement as ${text}`);
    const [row] = await session.unsafe(`explain (analyze, format json) execute hot_statement(${params.map(literal).join(", ")})`);
    const relations = nodesOf((row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan)
      .filter((node) => aliases.includes((node.Alias ?? "").replace(/_\d+$/, "")))
      .map((node) => node["Relation Name"] ?? "");
    return [...new Set(relations.filter((name) => /^(webhook_messages|events)_/.test(name)).map((name) => name.replace(/^.*_/, "")))].sort();
  } finally {
    await session`rollback`;
    await session`deallocate hot_statement`;
    session.release();
  }
}

const readyRows = () =>
  test.handle.sql<Array<{ message_id: string; history_at: string; candidate_id: string }>>`
    select r.message_id, to_char(r.history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as history_at, m.candidate_id
    from webhook_ready_messages r join webhook_messages m on m.id = r.message_id and m.history_at = r.history_at
    order by r.history_at`;

it("looks up only in the days it is given: the claim the ready set's, the recording and the readying the batch's", async () => {
  const ready = await readyRows();
  const readyDays = daysOf(ready.map((row) => row.history_at));
  expect(dayOf(readyDays.until) > dayOf(readyDays.from), "the simulation's days").toBe(true);
  const batch = ready.slice(-5);
  const batchDays = daysOf(batch.map((row) => row.history_at));
  const at = new Date().toISOString();
  const outcomes: OutcomeRow[] = batch.map((row) => ({
    message_id: row.message_id,
    history_at: row.history_at,
    webhook_id: webhookId,
    leased_at: at,
    status: "succeeded",
    attempt: 1,
    succeeded: true,
  }));
  // Each statement's lookups by key: the claim's messages and events, the messages the recording updates, the chains'
  // messages the readying ranks (the rows it then updates are joined to those: every day).
  const statements: Array<[string, SQL, Days, string[]]> = [
    ["the claim", claimStatement(new Date(), { limit: 50, perWebhook: 50, days: readyDays }), readyDays, ["m", "e"]],
    ["the recording of a batch", recordStatement(outcomes, new Date()), batchDays, ["m"]],
    [
      "readying the batch's chains",
      readyChainHeadsStatement(
        batch.map((row) => ({ webhookId, candidateId: row.candidate_id })),
        new Date(),
        batchDays,
      ),
      batchDays,
      ["p"],
    ],
  ];
  for (const [name, statement, days, aliases] of statements) {
    const opened = await daysOpened(statement, aliases);
    expect(opened.length, name).toBeGreaterThan(0);
    for (const day of opened) expect(day >= dayOf(days.from) && day <= dayOf(days.until), `${name} opened ${day}, outside ${JSON.stringify(days)}`).toBe(true);
  }
});

it("leaves a ready row of another day than the claim's, reports the days at once, and the next claim takes it; every body is found, a resend's too", async () => {
  const [oldest] = await test.handle.sql<[{ id: string }]>`
    select id from webhook_messages where webhook_id = ${webhookId} and status = 'pending' and not held order by history_at limit 1`;
  await test.handle.sql`update webhook_messages set status = 'succeeded' where id = ${oldest!.id}`;
  await test.handle.sql`delete from webhook_ready_messages where message_id = ${oldest!.id}`;
  await test.handle.sql`delete from webhook_chain_messages where message_id = ${oldest!.id}`;
  const { id: resendId } = await resendMessage(test.ctx, companyId, oldest!.id);
  const ready = await readyRows();
  const lastDay = ready.at(-1)!.history_at.slice(0, 10);
  const onlyTheLastDay = daysOf([ready.at(-1)!.history_at]);

  // Not asked for the days: it reports them because it chose rows of other days, which it left.
  const first = await claimDue(test.ctx.db, new Date(), { limit: 10_000, perWebhook: 10_000, days: onlyTheLastDay, reportDays: false });
  expect(first.messages.length).toBeGreaterThan(0);
  expect(new Set(first.messages.map((message) => message.historyAt.slice(0, 10)))).toEqual(new Set([lastDay]));
  expect(first.readyDays).toEqual(daysOf(ready.map((row) => row.history_at)));

  const next = await claimDue(test.ctx.db, new Date(), { limit: 10_000, perWebhook: 10_000, days: first.readyDays! });
  const claimed = [...first.messages, ...next.messages];
  expect(claimed.map((message) => message.id).sort()).toEqual(ready.map((row) => row.message_id).sort());
  expect(new Set(claimed.map((message) => message.historyAt.slice(0, 10))).size, "days claimed from").toBeGreaterThanOrEqual(10);
  for (const message of claimed) expect(message.body, `${message.id} of ${message.historyAt}`).not.toBeNull();
  const resent = claimed.find((message) => message.id === resendId);
  expect(JSON.parse(resent!.body!)).toMatchObject({ id: resent!.eventId, type: resent!.eventType });
});

it("readies a chain whose next message is in another day than the one that finished", async () => {
  // A chain of two waiting messages in different days: its head finishes, as the recording leaves it.
  const [chain] = await test.handle.sql<[{ candidate_id: string; head: string; head_at: string; next: string; next_at: string }]>`
    select k.candidate_id, (array_agg(m.id order by m.event_tx_id, m.event_seq))[1] as head,
      (array_agg(to_char(m.history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') order by m.event_tx_id, m.event_seq))[1] as head_at,
      (array_agg(m.id order by m.event_tx_id, m.event_seq))[2] as next,
      (array_agg(to_char(m.history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') order by m.event_tx_id, m.event_seq))[2] as next_at
    from webhook_chain_messages k join webhook_messages m on m.id = k.message_id and m.history_at = k.history_at
    where m.status = 'pending' and k.webhook_id = ${webhookId} group by k.candidate_id having count(*) >= 2 limit 1`;
  const elsewhere = new Date(new Date(chain!.head_at).getTime() - 3 * 24 * 3600_000).toISOString();
  // Its next message moved three days back (a row moves to that day's partition), its chain row with it.
  await test.handle.sql`update webhook_messages set history_at = ${elsewhere} where id = ${chain!.next}`;
  await test.handle.sql`update webhook_chain_messages set history_at = ${elsewhere} where message_id = ${chain!.next}`;
  await test.handle.sql`update webhook_messages set status = 'succeeded' where id = ${chain!.head}`;
  await test.handle.sql`delete from webhook_ready_messages where message_id = ${chain!.head}`;
  await test.handle.sql`delete from webhook_chain_messages where message_id = ${chain!.head}`;

  await readyChainHeads(test.ctx.db, [{ webhookId, candidateId: chain!.candidate_id }], new Date(), daysOf([chain!.head_at]));
  const [next] = await test.handle.sql<[{ held: boolean; ready: boolean }]>`
    select m.held, exists (select from webhook_ready_messages r where r.message_id = m.id) as ready from webhook_messages m where m.id = ${chain!.next}`;
  expect(next).toEqual({ held: false, ready: true });
});

// As the recording readies a finished batch's chains: in readyingDays, the bounded statement (nothing left to every day).
// The chain's next message is moved where each case needs it (the simulated history has few chains of either kind).
for (const [when, movedTo] of [
  ["came later, from another transaction (today)", () => new Date().toISOString()],
  ["is earlier on the finished message's day (its event committed out of time order)", (headAt: string) => `${headAt.slice(0, 10)}T00:00:00.000Z`],
] as const)
  it(`readies, in the days it is given, a chain whose next message ${when}`, async () => {
    // A chain whose waiting messages are all from its head's day on, and whose head is not at the day's first instant.
    const [chain] = await test.handle.sql<[{ candidate_id: string; head: string; head_at: string; next: string }]>`
      select * from (
        select k.candidate_id, (array_agg(m.id order by m.event_tx_id, m.event_seq))[1] as head,
          (array_agg(to_char(m.history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') order by m.event_tx_id, m.event_seq))[1] as head_at,
          (array_agg(m.id order by m.event_tx_id, m.event_seq))[2] as next,
          min(m.history_at) >= date_trunc('day', (array_agg(m.history_at order by m.event_tx_id, m.event_seq))[1], 'UTC') as from_head_day
        from webhook_chain_messages k join webhook_messages m on m.id = k.message_id and m.history_at = k.history_at
        where m.status = 'pending' and k.webhook_id = ${webhookId} group by k.candidate_id having count(*) >= 2
      ) chains where from_head_day and head_at not like '%T00:00:00.000Z' limit 1`;
    const at = movedTo(chain!.head_at);
    await test.handle.sql`update webhook_messages set history_at = ${at} where id = ${chain!.next}`;
    await test.handle.sql`update webhook_chain_messages set history_at = ${at} where message_id = ${chain!.next}`;
    await test.handle.sql`update webhook_messages set status = 'succeeded' where id = ${chain!.head}`;
    await test.handle.sql`delete from webhook_ready_messages where message_id = ${chain!.head}`;
    await test.handle.sql`delete from webhook_chain_messages where message_id = ${chain!.head}`;

    const [row] = await executePrepared<{ elsewhere: unknown[] }>(
      test.ctx.db,
      readyChainHeadsStatement([{ webhookId, candidateId: chain!.candidate_id }], new Date(), readyingDays([chain!.head_at], new Date())),
    );
    expect(row!.elsewhere).toEqual([]);
    const [next] = await test.handle.sql<[{ held: boolean; ready: boolean }]>`
      select m.held, exists (select from webhook_ready_messages r where r.message_id = m.id) as ready from webhook_messages m where m.id = ${chain!.next}`;
    expect(next).toEqual({ held: false, ready: true });
  });
