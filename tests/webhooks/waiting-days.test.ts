/**
 * The hot path's statements, planned once as the worker plans them, open
 * only the days of the log that hold what they look up
 * (server/webhooks/delivery/waiting-days.ts): the claim, the recording of a
 * batch, the readying of chains and the fan-out's enqueue. And what waits in
 * any of those days is still found: every ready message, over two weeks of
 * days, is claimed with its body, a resend's (whose event is read apart) too.
 */
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeAll, expect, it } from "vitest";
import { webhooks } from "@/db/schema";
import { simulate } from "@/server/demo/simulate";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { claimDue, claimStatement, type OutcomeRow, recordStatement } from "@/server/webhooks/delivery/deliver";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { enqueueStatement, eventMessage, type HistoryEventRow, historyEventOf, readyChainHeadsStatement } from "@/server/webhooks/delivery/messages";
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

type PlanNode = { "Relation Name"?: string; Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The days of the log and of the history that `statement` opens, planned once and generically as on the worker's
 * connections and run (EXPLAIN ANALYZE, rolled back): a day pruned as the statement starts is not in the plan run.
 */
async function daysOpened(statement: SQL): Promise<string[]> {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  const literal = (value: unknown) =>
    `'${(Array.isArray(value) ? `{${value.map((element) => `"${element}"`).join(",")}}` : String(value)).replaceAll("'", "''")}'`;
  const session = await test.handle.sql.reserve();
  try {
    await session`begin`;
    await session`set local plan_cache_mode = force_generic_plan`;
    await session.unsafe(`prepare hot_statement as ${text}`);
    const [row] = await session.unsafe(`explain (analyze, format json) execute hot_statement(${params.map(literal).join(", ")})`);
    const relations = nodesOf((row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan).map((node) => node["Relation Name"] ?? "");
    return [...new Set(relations.filter((name) => /^(webhook_messages|events)_/.test(name)).map((name) => name.replace(/^.*_/, "")))].sort();
  } finally {
    await session`rollback`;
    await session`deallocate hot_statement`;
    session.release();
  }
}

/** The first and last day (`YYYYMMDD`) of the waiting messages. */
async function waitingDays() {
  const [row] = await test.handle.sql<[{ first: string; last: string }]>`
    select to_char(min(history_at) at time zone 'UTC', 'YYYYMMDD') as first, to_char(max(history_at) at time zone 'UTC', 'YYYYMMDD') as last
    from webhook_messages where status = 'pending'`;
  return row;
}

it("opens only the days between the first and the last waiting message, never the days ahead or the DEFAULT partition", async () => {
  const { first, last } = await waitingDays();
  expect(Number(last) - Number(first), "the simulation's days").toBeGreaterThanOrEqual(10);
  const ready = await test.handle.sql<Array<{ message_id: string; history_at: string; candidate_id: string }>>`
    select r.message_id, to_char(r.history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as history_at, m.candidate_id
    from webhook_ready_messages r join webhook_messages m on m.id = r.message_id and m.history_at = r.history_at limit 20`;
  const at = new Date().toISOString();
  const outcomes: OutcomeRow[] = ready.map((row) => ({
    message_id: row.message_id,
    history_at: row.history_at,
    webhook_id: webhookId,
    leased_at: at,
    status: "succeeded",
    attempt: 1,
    succeeded: true,
  }));
  const events = await test.handle.sql<HistoryEventRow[]>`
    select e.id, e.type, e.candidate_id, e.interview_id, e.tx_id::text as tx, e.seq::text as seq, e.created_at from events e
    where e.company_id = ${companyId} order by e.created_at desc limit 20`;
  const [webhook] = await test.ctx.db.select().from(webhooks).where(sql`${webhooks.id} = ${webhookId}`);
  const statements: Record<string, SQL> = {
    "the claim": claimStatement(new Date(), { limit: 50, perWebhook: 50 }),
    "the recording of a batch": recordStatement(outcomes, new Date()),
    "readying the chains' next messages": readyChainHeadsStatement(
      ready.map((row) => ({ webhookId, candidateId: row.candidate_id })),
      new Date(),
    ),
    "the fan-out's enqueue (its events already sent: the repeat check, then the chains)": enqueueStatement(
      events.map((row) => eventMessage(test.ctx.newId, webhook!, historyEventOf(row))),
      new Date(),
    ),
  };
  for (const [name, statement] of Object.entries(statements)) {
    const days = await daysOpened(statement);
    expect(days.length, name).toBeGreaterThan(0);
    for (const day of days) expect(day >= first && day <= last, `${name} opened ${day}, outside ${first}–${last}`).toBe(true);
  }
});

it("claims every ready message, whatever its day, with its body; a resend's too", async () => {
  const [delivered] = await test.handle.sql<[{ id: string }]>`
    select id from webhook_messages where webhook_id = ${webhookId} and status = 'pending' order by history_at limit 1`;
  await test.handle.sql`update webhook_messages set status = 'succeeded' where id = ${delivered!.id}`;
  const { id: resendId } = await resendMessage(test.ctx, companyId, delivered!.id);
  const [{ ready }] = await test.handle.sql<[{ ready: number }]>`select count(*)::int as ready from webhook_ready_messages`;
  const { messages } = await claimDue(test.ctx.db, new Date(), { limit: 10_000, perWebhook: 10_000 });
  expect(messages).toHaveLength(ready);
  const days = new Set(messages.map((message) => message.historyAt.slice(0, 10)));
  expect(days.size, "days claimed from").toBeGreaterThanOrEqual(10);
  for (const message of messages) expect(message.body, `${message.id} of ${message.historyAt}`).not.toBeNull();
  const resent = messages.find((message) => message.id === resendId);
  expect(JSON.parse(resent!.body!)).toMatchObject({ id: resent!.eventId, type: resent!.eventType });
});
