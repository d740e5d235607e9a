/**
 * A burst of messages leaves the delivery log's days with statistics that
 * count their rows (db/grown-tables.ts, which the worker's fan-out task feeds
 * what it fans out): the worker plans its hot statements once
 * per connection, and a plan made while a day looked empty scans that day
 * whole for every chain once it is full. And however many messages wait,
 * the recording connection records a batch's outcomes and readies its
 * chains by looking each message up by its key.
 */
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeEach, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { grownTablesWatch } from "@/db/grown-tables";
import { simulate } from "@/server/demo/simulate";
import { recordingConnection } from "@/server/runtime/worker/run";
import { fannedOutTables } from "@/server/runtime/worker/tasks/fan-out-events";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { recordStatement } from "@/server/webhooks/delivery/deliver";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { readyChainHeadsStatement } from "@/server/webhooks/delivery/messages";
import { useTestDatabase } from "../support/database";
import { companyWithInterview } from "../support/fixtures";

const test = useTestDatabase();
let companyId: string;

/** Each day of the log holding messages: its rows, and the rows its statistics count. */
const messageDays = () =>
  test.handle.sql<Array<{ day: string; rows: number; counted: number }>>`
    select c.relname as day, (select count(*) from webhook_messages m where m.tableoid = c.oid)::int as rows, c.reltuples::int as counted
    from pg_inherits h join pg_class c on c.oid = h.inhrelid
    where h.inhparent = 'webhook_messages'::regclass and exists (select from webhook_messages m where m.tableoid = c.oid)
    order by 1`;

beforeEach(async () => {
  ({ companyId } = await companyWithInterview(test.ctx, "Burst"));
  await createWebhook(test.ctx, companyId, { url: "https://hooks.example.com/burst" }, { allowTargets: [] });
});

it("a burst fanned out into tables analyzed empty leaves each one's statistics counting its rows", async () => {
  // About 5,000 events over the simulated two weeks: some 350 messages a day, each day past the floor.
  await simulate(test.ctx, { companyId, interviews: 0, candidates: 2000, bulk: true, seed: 7 });
  // As autovacuum between bursts, or a `vacuumdb --analyze`, leaves them: the statistics of every day of the log, of the ready set
  // and of the chains' rows say they are empty. Autovacuum is kept out of it from here, so only the fan-out analyzes.
  await test.handle.sql`vacuum analyze webhook_messages, webhook_ready_messages, webhook_chain_messages`;
  const tables = await test.handle.sql<Array<{ name: string }>>`
    select inhrelid::regclass::text as name from pg_inherits where inhparent = 'webhook_messages'::regclass
    union all select unnest(array['webhook_ready_messages', 'webhook_chain_messages'])`;
  for (const { name } of tables) await test.handle.sql`alter table ${test.handle.sql(name)} set (autovacuum_enabled = false)`;
  // As the worker's fan-out task runs it (server/runtime/worker/tasks/fan-out-events.ts).
  const grownTables = grownTablesWatch(test.ctx.db, fannedOutTables);
  for (let created = -1; created !== 0; ) {
    ({ created } = await fanOutCompany(test.ctx, companyId));
    await grownTables.added(created);
  }
  // The two weeks' full days (the first and the last are partly simulated).
  const fullDays = (await messageDays()).filter(({ rows }) => rows >= 300);
  expect(fullDays.length).toBeGreaterThanOrEqual(12);
  for (const { day, rows, counted } of fullDays) {
    // Analyzed each time the day had doubled: at least half of what it holds now.
    expect(counted, `${day}: statistics count ${counted} of ${rows} rows`).toBeGreaterThanOrEqual(rows / 2);
  }
  const queues = await test.handle.sql<Array<{ name: string; rows: number; counted: number }>>`
    select 'ready set' as name, (select count(*) from webhook_ready_messages)::int as rows, reltuples::int as counted from pg_class where oid = 'webhook_ready_messages'::regclass
    union all
    select 'chains', (select count(*) from webhook_chain_messages)::int, reltuples::int from pg_class where oid = 'webhook_chain_messages'::regclass`;
  for (const { name, rows, counted } of queues) {
    expect(rows, name).toBeGreaterThan(1000);
    expect(counted, `${name}: statistics count ${counted} of ${rows} rows`).toBeGreaterThanOrEqual(rows / 2);
  }
});

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

it("readies a batch's chains and records its outcomes by key on the recording connection, however many messages wait, with plans made before the burst", async () => {
  // A first burst, delivered, and every statistic taken then: nothing waits.
  await simulate(test.ctx, { companyId, interviews: 0, candidates: 2000, bulk: true, seed: 9 });
  while ((await fanOutCompany(test.ctx, companyId)).created > 0);
  await test.handle.sql`update webhook_messages set status = 'succeeded', held = false, completed_at = now() where status = 'pending'`;
  await test.handle.sql`delete from webhook_ready_messages`;
  await test.handle.sql`delete from webhook_chain_messages`;
  await test.handle.sql`vacuum analyze webhook_messages, webhook_ready_messages, webhook_chain_messages`;
  const literal = (value: unknown) =>
    `'${(Array.isArray(value) ? `{${value.map((element) => `"${element}"`).join(",")}}` : String(value)).replaceAll("'", "''")}'`;
  const prepared = (statement: SQL) => {
    const { sql: text, params } = new PgDialect().sqlToQuery(statement);
    return { text, values: params.map(literal).join(", ") };
  };
  const readying = (chains: Array<{ webhookId: string; candidateId: string }>) => prepared(readyChainHeadsStatement(chains, new Date()));
  const at = new Date().toISOString();
  const recording = (messages: Array<{ id: string; historyAt: string; webhookId: string }>) =>
    prepared(
      recordStatement(
        messages.map((message) => ({
          message_id: message.id,
          history_at: message.historyAt,
          webhook_id: message.webhookId,
          leased_at: at,
          status: "succeeded",
          attempt: 1,
          succeeded: true,
        })),
        new Date(),
      ),
    );
  const connection = createDatabase(test.url, recordingConnection);
  const session = await connection.sql.reserve();
  try {
    // Planned once, as the worker plans them on this connection: now, before the second burst.
    for (const [name, before] of [
      ["readying", readying([{ webhookId: "wh_none", candidateId: "cand_none" }])],
      ["recording", recording([{ id: "msg_none", historyAt: at, webhookId: "wh_none" }])],
    ] as const) {
      await session.unsafe(`prepare ${name} as ${before.text}`);
      await session.unsafe(`execute ${name}(${before.values})`);
    }
    await simulate(test.ctx, { companyId, interviews: 0, candidates: 2000, bulk: true, seed: 10 });
    const grownTables = grownTablesWatch(test.ctx.db, fannedOutTables);
    for (let created = -1; created !== 0; ) {
      ({ created } = await fanOutCompany(test.ctx, companyId));
      await grownTables.added(created);
    }
    const waiting = await test.handle.sql<Array<{ id: string; historyAt: string; webhookId: string; candidateId: string }>>`
      select distinct on (webhook_id, candidate_id) id, to_char(history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "historyAt",
        webhook_id as "webhookId", candidate_id as "candidateId"
      from webhook_messages where company_id = ${companyId} and status = 'pending' limit 20`;
    const fullDays = new Set((await messageDays()).filter(({ rows }) => rows >= 300).map(({ day }) => day));
    for (const [name, after] of [
      ["readying", readying(waiting)],
      ["recording", recording(waiting)],
    ] as const) {
      const [row] = await session.unsafe(`explain (format json) execute ${name}(${after.values})`);
      const nodes = nodesOf((row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
      for (const refused of ["Hash Join", "Merge Join", "Materialize"])
        expect(
          nodes.map((node) => node["Node Type"]),
          name,
        ).not.toContain(refused);
      // Each message by its key in its day, never a day read whole
      // (but a day of a few pages, made ahead or the simulation's last, may well be).
      const scansOfDays = nodes.filter((node) => fullDays.has(node["Relation Name"] ?? ""));
      // The readying looks each chain's messages up and then updates those that change (two scans a day); the
      // recording updates its batch's messages, in their days.
      expect(scansOfDays.length, name).toBeGreaterThan(name === "readying" ? fullDays.size : 0);
      for (const scan of scansOfDays)
        expect(`${scan["Node Type"]} ${scan["Index Name"]}`, `${name}: ${scan["Relation Name"]}`).toMatch(/^Index Scan webhook_messages_id_history_at_pk_/);
    }
  } finally {
    session.release();
    await connection.close();
  }
});
