/**
 * A burst of messages leaves the delivery log's days with statistics that
 * count their rows (db/grown-tables.ts, which the worker's fan-out task feeds
 * what it fans out): the worker plans its hot statements once
 * per connection, and a plan made while a day looked empty scans that day
 * whole for every chain once it is full. And however many messages wait,
 * the recording connection readies a batch's chains by looking each message
 * up by its key.
 */
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeEach, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { grownTablesWatch } from "@/db/grown-tables";
import { simulate } from "@/server/demo/simulate";
import { recordingConnection } from "@/server/runtime/worker/run";
import { fannedOutTables } from "@/server/runtime/worker/tasks/fan-out-events";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
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

type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

it("readies a batch's chains by key on the recording connection, however many messages wait", async () => {
  await simulate(test.ctx, { companyId, interviews: 0, candidates: 2000, bulk: true, seed: 9 });
  await test.handle.sql`vacuum analyze webhook_messages`;
  while ((await fanOutCompany(test.ctx, companyId)).created > 0);
  const chains = await test.handle.sql<Array<{ webhookId: string; candidateId: string }>>`
    select distinct webhook_id as "webhookId", candidate_id as "candidateId" from webhook_messages
    where company_id = ${companyId} and status = 'pending' limit 20`;
  const { sql: text, params } = new PgDialect().sqlToQuery(readyChainHeadsStatement(chains, new Date()));
  const literal = (value: unknown) =>
    `'${(Array.isArray(value) ? `{${value.map((element) => `"${element}"`).join(",")}}` : String(value)).replaceAll("'", "''")}'`;
  const recording = createDatabase(test.url, recordingConnection);
  try {
    const [row] = await recording.sql.begin(async (session) => {
      // Prepared and run as the worker runs it: planned once, generically, with this connection's settings.
      await session.unsafe(`prepare readying as ${text}`);
      const plan = await session.unsafe(`explain (format json) execute readying(${params.map(literal).join(", ")})`);
      await session.unsafe("deallocate readying");
      return plan;
    });
    const nodes = nodesOf((row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
    expect(nodes.map((node) => node["Node Type"])).not.toContain("Hash Join");
    expect(nodes.map((node) => node["Node Type"])).not.toContain("Merge Join");
    // A day of a few pages (made ahead, or the simulation's last) may well be read whole.
    const fullDays = new Set((await messageDays()).filter(({ rows }) => rows >= 300).map(({ day }) => day));
    const scansOfDays = nodes.filter((node) => fullDays.has(node["Relation Name"] ?? ""));
    expect(scansOfDays.length).toBeGreaterThan(fullDays.size);
    for (const scan of scansOfDays) expect(scan["Node Type"], scan["Relation Name"]).toMatch(/^Index (Only )?Scan$/);
  } finally {
    await recording.close();
  }
});
