/**
 * Every list query the API runs is served by an index in the list's order:
 * an index scan and no sort, at a realistic volume. SubPlans are the per-row
 * aggregates of one candidate's answers and documents (a few rows each); they
 * are not the list and may order their few rows.
 *
 * The history and the delivery log are partitioned by day (db/partitions.ts):
 * there a list is a Merge Append of the index's scans in each day's partition
 * (`events_feed_idx_20261123`), still without a sort, and days outside the
 * list's 30 days are not read at all.
 *
 * The settings' reads of the delivery log read a day only where its key tells
 * them to: a message's attempts in its one day, the past events to send in the
 * days since the time asked. The rest are shown by when a message was created
 * or a try started, which says nothing of the day a message is kept in (its
 * event's: a past event sent today, or a fan-out that caught up late, is kept
 * in an old day, and a day stays past the 30 days while a message in it
 * waits): they read every day, each through an index.
 *
 * No hot statement is planned as expensive: PostgreSQL compiles a statement
 * with JIT when its estimated cost passes `jit_above_cost` (on by default in
 * stock servers such as Debian's, not in the embedded one, which ships no
 * `llvmjit.so`), and that takes longer than the statement runs. The estimates
 * must be honest (set-returning functions say how many rows they return) for
 * every server, so the costs are checked everywhere and the absence of JIT
 * wherever the server can JIT.
 */

import { eq, sql as fragment, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import { beforeAll, describe, expect, it } from "vitest";
import { utcDay } from "@/db/partitions";
import { interviews, webhooks } from "@/db/schema";
import { admitStatement } from "@/server/api/admission";
import { hashApiKey } from "@/server/auth/api-key-format";
import { simulate } from "@/server/demo/simulate";
import { createApiKey } from "@/server/domain/accounts";
import { createInterview } from "@/server/domain/interviews";
import { type CandidateFilters, candidateByIdQuery, candidatePageQuery } from "@/server/read/candidates";
import { eventPageQuery } from "@/server/read/events";
import { interviewListQuery } from "@/server/read/interviews";
import { countMissedEvents } from "@/server/webhooks/admin/backfill";
import { failedSinceCount } from "@/server/webhooks/admin/resend";
import { claimStatement } from "@/server/webhooks/delivery/claim";
import { historyAfterPositionStatement } from "@/server/webhooks/delivery/fan-out";
import type { NewMessage } from "@/server/webhooks/delivery/messages";
import { endWebhookQueueStatement, enqueueStatement } from "@/server/webhooks/delivery/queue";
import { type OutcomeRow, recordStatement } from "@/server/webhooks/delivery/record";
import { maxAttempts } from "@/server/webhooks/delivery/retry-schedule";
import { deliveryChartQuery } from "@/server/webhooks/views/delivery-chart";
import { companyMessagesQuery, getMessage, listAttempts, messageListQuery, messageQuery } from "@/server/webhooks/views/delivery-log";
import { webhookHealthQuery } from "@/server/webhooks/views/health";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();
let companyId: string;
let interviewId: string;
/** A day of history older than the API's 30 days, still there (retention runs hourly). */
let oldDay: string;
const webhookId = "wh_plans";
/** A webhook with a small share of each day's log (one event in 50), as most have among every company's deliveries: its failures, waiting messages and tries. */
const rareWebhookId = "wh_plans_rare";
/** How many webhooks the neighbouring company has, each with its share of its events. */
const neighbourWebhooks = 40;
/**
 * The partitions worth an index: more than a few pages. The others are the
 * days ahead, the DEFAULT partition, days the simulation left empty, and its
 * first day when the clock makes that day's share small (a few pages, which
 * PostgreSQL fairly reads whole: as cheap as an index's descent and its heap).
 */
let worthAnIndex: Set<string>;
/**
 * Pages above which a partition read whole is a plan to refuse. The first
 * day's share changes with the hour the test runs at: 8 pages at 22:50 UTC;
 * on a stock PostgreSQL at 22:35 it had more than 8, and the planner read it
 * whole for the company search. A full day's share is about 145 pages, so 32
 * (256 KiB) still refuses reading a real day whole.
 */
const fewPages = 32;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Volume");
  const other = await makeCompany(test.ctx, "Neighbour");
  await simulate(test.ctx, { companyId, interviews: 4, candidates: 20_000, bulk: true, seed: 1 });
  await simulate(test.ctx, { companyId: other, interviews: 4, candidates: 10_000, bulk: true, seed: 2 });
  for (let index = 0; index < 300; index++) await createInterview(test.ctx, index % 2 ? companyId : other, { title: `Role ${index}` });
  interviewId = (
    await test.ctx.db
      .select({ id: interviews.id })
      .from(interviews)
      .where(fragment`${interviews.companyId} = ${companyId} and ${interviews.aiStep} is not null`)
      .limit(1)
  )[0]!.id;
  const old = new Date(Date.now() - 40 * 24 * 3600_000).toISOString().slice(0, 10);
  oldDay = old.replaceAll("-", "");
  for (const [table, key] of [
    ["events", "created_at"],
    ["webhook_messages", "history_at"],
    ["webhook_attempts", "history_at"],
  ] as const)
    await test.handle.sql`select history_partition_create(${table}, ${key}, ${old}::text::date)`;
  await test.handle.sql`
    insert into events (id, company_id, candidate_id, interview_id, type, created_at)
    select 'evt_old' || e.seq, e.company_id, e.candidate_id, e.interview_id, 'candidate.status_changed', now() - interval '40 days'
    from events e where e.company_id = ${companyId} limit 2000`;
  await test.handle.sql`
    insert into webhooks (id, company_id, url, event_types, secret_ciphertext, failing_since) values
      (${webhookId}, ${companyId}, 'https://example.com/in', '[]', 'x', null),
      (${rareWebhookId}, ${companyId}, 'https://example.com/rare', '["candidate.submitted", "candidate.ready"]', 'x', now() - interval '2 hours')`;
  await test.handle.sql`
    insert into webhooks (id, company_id, url, event_types, secret_ciphertext)
    select 'wh_neighbour' || n, ${other}, 'https://example.com/neighbour', '[]', 'x' from generate_series(0, ${neighbourWebhooks - 1}) n`;
  // Every event's message to the first webhook, the old day's too; one event in 50 to the other, where one in 10 failed for good and one waits;
  // the neighbour's events to its webhooks, one each, a quarter of them still waiting (a backlog): the log holds every company's deliveries.
  await test.handle.sql`
    insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, status, attempt_count, next_attempt_at, created_at, history_at)
    select 'msg_' || e.seq, e.company_id, ${webhookId}, 'event', e.id, e.type, e.candidate_id, 'succeeded', 1, e.created_at, e.created_at, e.created_at
    from events e where e.company_id = ${companyId}
    union all
    select 'msg_rare' || e.seq, e.company_id, ${rareWebhookId}, 'event', e.id, e.type, e.candidate_id,
      case (e.seq / 50) % 10 when 0 then 'failed' when 1 then 'pending' else 'succeeded' end,
      case (e.seq / 50) % 10 when 0 then ${maxAttempts} when 1 then 0 else 1 end, e.created_at, e.created_at, e.created_at
    from events e where e.company_id = ${companyId} and e.seq % 50 = 0
    union all
    select 'msg_neighbour' || e.seq, e.company_id, 'wh_neighbour' || e.seq % ${neighbourWebhooks}, 'event', e.id, e.type, e.candidate_id,
      case when e.seq % 4 = 0 then 'pending' else 'succeeded' end, case when e.seq % 4 = 0 then 0 else 1 end, e.created_at, e.created_at, e.created_at
    from events e where e.company_id = ${other}`;
  // The rare webhook's waiting messages have later messages of their candidates waiting behind them.
  await test.handle.sql`
    insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, status, attempt_count, next_attempt_at, created_at, history_at)
    select 'msg_rare_next' || e.seq, e.company_id, ${rareWebhookId}, 'event', e.id, e.type, e.candidate_id, 'pending', 0, e.created_at, e.created_at, e.created_at
    from events e
    where e.company_id = ${companyId} and e.seq % 50 <> 0
      and e.candidate_id in (select candidate_id from webhook_messages where webhook_id = ${rareWebhookId} and status = 'pending')`;
  // The waiting ones in the queue, as queueing writes them (queue.ts): each chain's first ready (due since its event), the rest held.
  await test.handle.sql`
    insert into webhook_queue (message_id, history_at, webhook_id, candidate_id, company_id, event_id, event_type, event_at, position, state, due_at, queued_at)
    select id, history_at, webhook_id, candidate_id, company_id, event_id, event_type, history_at, seq,
      case when row_number() over (partition by webhook_id, candidate_id order by seq) = 1 then 'ready' else 'held' end, next_attempt_at, created_at
    from webhook_messages where status = 'pending'`;
  await test.handle.sql`
    insert into webhook_attempts (id, message_id, webhook_id, attempt, url, started_at, duration_ms, request_headers, succeeded, created_at, history_at)
    select 'att_' || m.id, m.id, m.webhook_id, m.attempt_count, 'https://example.com/in', m.created_at + interval '1 second', 20, '{}',
      m.status = 'succeeded', m.created_at + interval '2 seconds', m.history_at
    from webhook_messages m where m.status <> 'pending'`;
  await test.handle.sql`analyze`;
  worthAnIndex = new Set(
    (
      await test.handle.sql<Array<{ name: string }>>`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent in ('events'::regclass, 'webhook_messages'::regclass, 'webhook_attempts'::regclass) and c.relpages > ${fewPages}`
    ).map((row) => row.name),
  );
}, 180_000);

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Parent Relationship"?: string; Plans?: PlanNode[] };

/**
 * The plan's nodes outside SubPlans (unless `subPlans`: a statement whose
 * reads are all per-row figures, such as a webhook's health), and with
 * `perRowLookups`, also outside the inner side of a nested loop that is a
 * `LIMIT` (a lateral lookup of a few rows per row of the list, such as a
 * message's latest resend).
 */
async function plan(query: postgres.PendingQuery<any>, options: PlanOptions = {}) {
  const [row] = await test.handle.sql`explain (format json) ${query}`;
  return planNodes(row!, options);
}

/** The plan of a statement drizzle builds (`toSQL()`, or a `sql` template through the dialect). */
async function planOfStatement({ sql: text, params }: { sql: string; params: unknown[] }, options: PlanOptions = {}) {
  const [row] = await test.handle.sql.unsafe(`explain (format json) ${text}`, params as postgres.ParameterOrJSON<never>[]);
  return planNodes(row!, options);
}

type PlanOptions = { perRowLookups?: boolean; subPlans?: boolean };

function planNodes(row: postgres.Row, { perRowLookups = false, subPlans = false }: PlanOptions) {
  const nodes: PlanNode[] = [];
  const visit = (node: PlanNode) => {
    if (!subPlans && node["Parent Relationship"] === "SubPlan") return;
    if (perRowLookups && node["Parent Relationship"] === "Inner" && node["Node Type"] === "Limit") return;
    nodes.push(node);
    node.Plans?.forEach(visit);
  };
  visit((row["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
  return nodes;
}

/** `name` is `parent` or one of its partitions (`events_20261123`, `events_default`), whose indexes are named alike. */
const isOrPartitionOf = (name: string | undefined, parent: string) => name !== undefined && new RegExp(`^${parent}(_(\\d{8}|default))?$`).test(name);

/** `index` is the list's; `alsoIndexes` those other reads of the statement may use (an interview's events page also finds the company's last event). */
function expectIndexOrdered(nodes: PlanNode[], table: string, index: string, alsoIndexes: string[] = []) {
  const types = nodes.map((node) => node["Node Type"]);
  expect(types, JSON.stringify(types)).not.toContain("Sort");
  expect(types).not.toContain("Incremental Sort");
  expect(nodes.filter((node) => node["Node Type"] === "Seq Scan").map((node) => node["Relation Name"])).toEqual([]);
  const scans = nodes.filter((node) => isOrPartitionOf(node["Relation Name"], table));
  const described = JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]));
  expect(scans.length, described).toBeGreaterThan(0);
  // Every partition read is read through the list's index (or one of the others named), and the list's index is read.
  for (const scan of scans)
    expect(
      [index, ...alsoIndexes].some((wanted) => isOrPartitionOf(scan["Index Name"], wanted)),
      described,
    ).toBe(true);
  expect(
    scans.some((scan) => isOrPartitionOf(scan["Index Name"], index)),
    described,
  ).toBe(true);
}

/** The partitions of `table` a plan reads. */
const partitionsRead = (nodes: PlanNode[], table: string) =>
  nodes.map((node) => node["Relation Name"]).filter((name): name is string => isOrPartitionOf(name, table) && name !== table);

/** The indexes a scan reads: its own, or those of the bitmap it reads. */
const indexesOf = (scan: PlanNode): string[] =>
  scan["Index Name"] ? [scan["Index Name"]] : (scan.Plans ?? []).flatMap((child) => (child["Relation Name"] ? [] : indexesOf(child)));

/**
 * Every partition of `table` of more than a few pages is read through one of
 * `indexes` (an index scan, or a bitmap of it), never by a Seq Scan. An empty
 * partition (a day ahead, DEFAULT) or one of a few pages may be: PostgreSQL
 * plans a Seq Scan for a table its statistics say is empty, which reads no
 * page, and for one of a few pages, which costs what an index read would.
 */
function expectIndexRead(nodes: PlanNode[], table: string, indexes: string[]) {
  const described = JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]));
  const scans = nodes.filter((node) => isOrPartitionOf(node["Relation Name"], table) && worthAnIndex.has(node["Relation Name"]!));
  expect(scans.length, described).toBeGreaterThan(0);
  for (const scan of scans) {
    const used = indexesOf(scan);
    expect(used.length, `${scan["Node Type"]} on ${scan["Relation Name"]}`).toBeGreaterThan(0);
    for (const index of used)
      expect(
        indexes.some((wanted) => isOrPartitionOf(index, wanted)),
        `${index} in ${described}`,
      ).toBe(true);
  }
}

/** The partitions read whose day is before `day` (`YYYY-MM-DD`). */
const daysReadBefore = (nodes: PlanNode[], table: string, day: string) =>
  partitionsRead(nodes, table).filter((name) => /_\d{8}$/.test(name) && name.slice(-8) < day.replaceAll("-", ""));

/** The first plan of an EXPLAIN's rows. */
const firstPlan = (rows: readonly Record<string, unknown>[]) => (rows[0]!["QUERY PLAN"] as Array<Record<string, any>>)[0]!;

class RolledBack extends Error {}

/** A parameter as an untyped SQL literal, which takes the prepared statement's parameter type (arrays as array literals). */
const sqlLiteral = (value: unknown): string => {
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value))
    return quote(`{${value.map((element) => (typeof element === "number" ? element : `"${String(element).replace(/["\\]/g, "\\$&")}"`)).join(",")}}`);
  return quote(String(value));
};

type WorkerTransaction = Parameters<Parameters<typeof test.handle.db.transaction>[0]>[0];

/**
 * A statement of the worker's as drizzle sends it (its JSON parameters pass
 * as they are), prepared and planned generically as on the worker's
 * connections (db/prepared.ts), explained with `options` in a transaction
 * rolled back after (`analyze` runs it: what it writes is undone); `before`
 * runs first in that transaction. `jit`: with JIT on whatever the session says.
 */
async function workerPlan(query: SQL, options: string, { jit = false, before }: { jit?: boolean; before?: (tx: WorkerTransaction) => Promise<unknown> } = {}) {
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  let plan: Record<string, any> | undefined;
  await test.handle.db
    .transaction(async (tx) => {
      if (jit) await tx.execute(fragment`set local jit = on`);
      await tx.execute(fragment`set local plan_cache_mode = force_generic_plan`);
      await before?.(tx);
      // Prepared and executed, so that EXPLAIN shows the plan made once for every run, not one for these values.
      await tx.execute(fragment.raw(`prepare hot_statement as ${text}`));
      const values = params.map(sqlLiteral).join(", ");
      plan = firstPlan(await tx.execute(fragment.raw(`explain (${options}) execute hot_statement(${values})`)));
      await tx.execute(fragment`deallocate hot_statement`);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return plan!;
}

describe("list query plans", () => {
  const sql = () => test.handle.sql;
  const later = { at: new Date(Date.now() - 3 * 24 * 3600_000).toISOString(), id: "cand_zzzz" };

  it.each<[string, CandidateFilters, string, boolean]>([
    ["submitted", { state: "submitted" }, "candidates_submitted_idx", false],
    ["submitted, next page", { state: "submitted" }, "candidates_submitted_idx", true],
    ["submitted, by status", { state: "submitted", statuses: ["passed", "rejected"] }, "candidates_submitted_idx", true],
    [
      "submitted, by time",
      { state: "submitted", submittedAfter: "2026-01-01T00:00:00Z", submittedBefore: "2030-01-01T00:00:00Z" },
      "candidates_submitted_idx",
      false,
    ],
    ["in progress", { state: "in_progress" }, "candidates_in_progress_idx", true],
    ["all", { state: "all" }, "candidates_started_idx", true],
  ])("GET /candidates %s", async (_name, filters, index, paged) => {
    expectIndexOrdered(await plan(candidatePageQuery(sql(), companyId, filters, 25, paged ? later : undefined)), "candidates", index);
  });

  it("GET /candidates for one interview", async () => {
    expectIndexOrdered(
      await plan(candidatePageQuery(sql(), companyId, { state: "submitted", interviewId }, 25, later)),
      "candidates",
      "candidates_interview_submitted_idx",
    );
    expectIndexOrdered(await plan(candidatePageQuery(sql(), companyId, { state: "all", interviewId }, 25)), "candidates", "candidates_interview_started_idx");
  });

  it("GET /interviews", async () => {
    expectIndexOrdered(await plan(interviewListQuery(sql(), companyId, { limit: 25 })), "interviews", "interviews_list_idx");
    expectIndexOrdered(
      await plan(interviewListQuery(sql(), companyId, { limit: 25, status: "draft", after: { createdAt: new Date().toISOString(), id: "int_z" } })),
      "interviews",
      "interviews_list_by_status_idx",
    );
  });

  it("GET /events", async () => {
    expectIndexOrdered(await plan(eventPageQuery(sql(), companyId, { limit: 25 })), "events", "events_feed_idx");
    expectIndexOrdered(
      await plan(eventPageQuery(sql(), companyId, { limit: 25, types: ["candidate.ready"], after: { tx: "1", seq: "5000" } })),
      "events",
      "events_feed_idx",
    );
    expectIndexOrdered(await plan(eventPageQuery(sql(), companyId, { limit: 25, interviewId })), "events", "events_interview_feed_idx", ["events_feed_idx"]);
  });

  it("GET /events reads the days of its 30 days only, each through the index", async () => {
    const nodes = await plan(eventPageQuery(sql(), companyId, { limit: 25 }));
    const read = partitionsRead(nodes, "events");
    expect(read.length).toBeGreaterThan(7);
    expect(read).not.toContain(`events_${oldDay}`);
    expect(nodes.map((node) => node["Node Type"])).toContain("Merge Append");
  });
});

describe("the delivery log's query plans (settings)", () => {
  const sql = () => test.handle.sql;
  const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000);

  // The log is shown by creation time, which says nothing of a message's day:
  // every day is read, the old one too, each through the log's index. Messages
  // created in one moment (a backfill, a fan-out's batch: at most 1,000) are
  // put in the order they were added (seq) by an incremental sort of those
  // ties alone, on top of the index's order; never a sort of the whole log.
  it("lists a webhook's log newest first through its index in every day, sorting only messages created in the same moment", async () => {
    const now = new Date();
    const lookups = { perRowLookups: true };
    for (const before of [undefined, { createdAt: now.toISOString(), seq: "1000" }]) {
      const nodes = await plan(messageListQuery(sql(), companyId, webhookId, { limit: 25, before }, now), lookups);
      const tieSorts = nodes.filter((node) => node["Node Type"] === "Incremental Sort");
      for (const sort of tieSorts) expect((sort as { "Presorted Key"?: string[] })["Presorted Key"]).toEqual(["m.created_at"]);
      expectIndexOrdered(
        nodes.filter((node) => node["Node Type"] !== "Incremental Sort"),
        "webhook_messages",
        "webhook_messages_log_idx",
      );
    }
  });

  // "Find this event id" on every webhook of the company: each webhook's event-id indexes, as in one log's search
  // (or, where the planner finds it cheaper, such as a day outside the 30 days, the webhook's creation range in the log's index).
  it("searches every webhook's log of a company for an event id through indexes, never reading a day whole", async () => {
    const nodes = await plan(companyMessagesQuery(sql(), companyId, { field: "event", prefix: "evt_abc" }, new Date()), { perRowLookups: true });
    expectIndexRead(nodes, "webhook_messages", ["webhook_messages_event_key", "webhook_messages_other_event_idx", "webhook_messages_log_idx"]);
  });

  // An id says nothing of its day, and the pages link to messages by id: every day's primary key is probed.
  it("finds a message by its id through each day's primary key", async () => {
    const nodes = await plan(messageQuery(sql(), companyId, "msg_x"), { perRowLookups: true });
    expectIndexRead(nodes, "webhook_messages", ["webhook_messages_id_history_at_pk"]);
  });

  it("reads a message's attempts in its one day, through the attempts' index", async () => {
    const [tried] = await sql()<Array<{ id: string }>>`
      select id from webhook_messages where webhook_id = ${rareWebhookId} and status <> 'pending' and history_at < now() - interval '31 days' limit 1`;
    const message = (await getMessage(sql(), companyId, tried!.id))!;
    const nodes = await plan(listAttempts(sql(), companyId, message));
    expect(partitionsRead(nodes, "webhook_attempts")).toEqual([`webhook_attempts_${oldDay}`]);
    expect(partitionsRead(nodes, "webhook_messages")).toEqual([`webhook_messages_${oldDay}`]);
    expectIndexRead(nodes, "webhook_attempts", ["webhook_attempts_message_idx"]);
    expectIndexRead(nodes, "webhook_messages", ["webhook_messages_id_history_at_pk"]);
    expect(await listAttempts(sql(), companyId, message)).toHaveLength(1);
  });

  // Tries are counted by when they started, waiting messages in the queue:
  // any day may hold them (a message's tries go on while it waits in its chain).
  it("figures a webhook's health through the tries' index, a try's message by its key", async () => {
    const nodes = await plan(webhookHealthQuery(sql(), companyId, [rareWebhookId, webhookId], new Date()), { subPlans: true });
    // A run's failed last tries (the 9th) may be found by their number in (message_id, attempt), skipping over the ids.
    expectIndexRead(nodes, "webhook_attempts", ["webhook_attempts_webhook_idx", "webhook_attempts_message_idx"]);
    // A try's message by its key in its one day; the waiting messages are counted in the queue, never the log.
    expectIndexRead(nodes, "webhook_messages", ["webhook_messages_id_history_at_pk"]);
  });

  it("charts a webhook's tries by hour through the tries' index, reading the range once", async () => {
    for (const range of ["24h", "7d"] as const) {
      const nodes = await plan(deliveryChartQuery(sql(), companyId, rareWebhookId, range, new Date()));
      expectIndexRead(nodes, "webhook_attempts", ["webhook_attempts_webhook_idx"]);
      // Not read again for each hour of the range (the inner side of a nested loop over the hours).
      expect(nodes.map((node) => node["Node Type"])).not.toContain("Nested Loop");
    }
  });

  // The latest message of each event is found in the event's order (DISTINCT ON), which a sort gives.
  it("counts the failed messages to resend through the log's index", async () => {
    const count = failedSinceCount(test.ctx.db, rareWebhookId, daysAgo(2)).toSQL();
    expectIndexRead(await planOfStatement(count), "webhook_messages", ["webhook_messages_log_idx"]);
  });

  it("counts the past events to send in the days since the time asked only, the log through its key", async () => {
    const since = daysAgo(2);
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, rareWebhookId));
    const nodes = await planOfStatement(new PgDialect().sqlToQuery(countMissedEvents(webhook!, since)));
    expect(daysReadBefore(nodes, "events", utcDay(since))).toEqual([]);
    expect(daysReadBefore(nodes, "webhook_messages", utcDay(since))).toEqual([]);
    expect(partitionsRead(nodes, "webhook_messages")).toContain(`webhook_messages_${utcDay(new Date()).replaceAll("-", "")}`);
    // The webhook's messages of those days: through either index that starts with the webhook.
    expectIndexRead(nodes, "webhook_messages", ["webhook_messages_event_key", "webhook_messages_log_idx"]);
    // The events are not checked for an index: the company's are most of those days' events, and reading the days whole is the planner's fair choice.
  });
});

/**
 * The delivery engine's statements (docs/webhook-engine.md) over a small,
 * unpartitioned queue (`webhook_queue`) and the partitioned log, each planned
 * generically as the worker plans them and run (EXPLAIN ANALYZE, rolled
 * back): the claim finds what to send through the queue's indexes; a message
 * of the log is read or written by its key, in its one day (each lookup visits
 * one partition, the others pruned as it runs); no day of the log is ever
 * read whole to decide what to send.
 */
describe("the delivery engine's query plans", () => {
  const sql = () => test.handle.sql;
  const messagesPk = "webhook_messages_id_history_at_pk";

  type RunNode = PlanNode & { "Actual Loops"?: number; "Actual Rows"?: number };
  /** Every node of a run's plan, InitPlans and SubPlans (the CTEs) included. */
  const runNodes = (root: RunNode): RunNode[] => [root, ...(root.Plans ?? []).flatMap((child) => runNodes(child as RunNode))];
  const run = async (query: SQL, before?: (tx: WorkerTransaction) => Promise<unknown>) =>
    runNodes((await workerPlan(query, "analyze, format json", { before })).Plan as RunNode);
  const describePlan = (nodes: RunNode[]) =>
    JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"] ?? indexesOf(node).join("+"), node["Actual Loops"]]));
  /** The reads of `table` (or its partitions): scans, not the statement's own write. */
  const readsOf = (nodes: RunNode[], table: string) =>
    nodes.filter((node) => node["Node Type"] !== "ModifyTable" && isOrPartitionOf(node["Relation Name"], table));
  const ran = (node: RunNode) => (node["Actual Loops"] ?? 0) > 0;

  /**
   * Every message of the log the statement reads, it reads by its key in its
   * one day: each day read is read through its primary key, no lookup
   * visits more than one day (the days under one Append are visited, in all,
   * at most once per loop), and `days` days are visited in all, when given.
   * (`table`, `key`: the same of another partitioned table, the history.)
   */
  function expectEachByKeyInItsDay(nodes: RunNode[], days?: number, table = "webhook_messages", key = messagesPk) {
    const described = describePlan(nodes);
    const reads = readsOf(nodes, table);
    expect(
      reads.filter((node) => node["Node Type"] === "Seq Scan" && ran(node)).map((node) => node["Relation Name"]),
      described,
    ).toEqual([]);
    const visited = reads.filter(ran);
    expect(visited.length, described).toBeGreaterThan(0);
    for (const read of visited) {
      const used = indexesOf(read);
      expect(used.length > 0 && used.every((index) => isOrPartitionOf(index, key)), `${read["Relation Name"]} in ${described}`).toBe(true);
    }
    for (const node of nodes) {
      const days = (node.Plans ?? []).filter((child) => readsOf([child as RunNode], table).length > 0 && child["Relation Name"] !== undefined);
      if (days.length < 2) continue;
      const loops = days.reduce((sum, day) => sum + ((day as RunNode)["Actual Loops"] ?? 0), 0);
      expect(loops, `${node["Node Type"]} visits more than one day a loop: ${described}`).toBeLessThanOrEqual(node["Actual Loops"] ?? 0);
    }
    if (days !== undefined) expect(new Set(visited.map((node) => node["Relation Name"])).size, described).toBe(days);
  }

  /** The rare webhook's first `count` sendable messages, as the claim takes them, leased now (`leased_at`). */
  const leaseRareHeads = (count: number, leasedAt: string) => (tx: WorkerTransaction) =>
    tx.execute(fragment`
      update webhook_queue set state = 'running', leased_at = ${leasedAt}::timestamptz
      where message_id in (select message_id from webhook_queue where webhook_id = ${rareWebhookId} and state = 'ready' order by due_at, position limit ${count})`);

  // A backlog of a few thousand messages: more than a few pages, so reading the queue whole is a plan to refuse.
  it("has a queue of waiting messages, each chain's first ready and the rest held, as the tests below need", async () => {
    const [counts] = await sql()<Array<{ ready: number; held: number; rare_held: number; pages: number }>>`
      select count(*) filter (where state = 'ready')::int as ready, count(*) filter (where state = 'held')::int as held,
        count(*) filter (where state = 'held' and webhook_id = ${rareWebhookId})::int as rare_held,
        (select relpages from pg_class where oid = 'webhook_queue'::regclass) as pages
      from webhook_queue`;
    expect(counts!.ready).toBeGreaterThan(1000);
    expect(counts!.rare_held).toBeGreaterThan(0);
    expect(counts!.pages).toBeGreaterThan(fewPages);
  });

  /** The claim reads neither the log nor the history (its queue rows carry what it sends): no scan of any of their days. */
  const expectNoHistoryRead = (nodes: RunNode[]) => {
    for (const table of ["webhook_messages", "webhook_attempts", "events"]) expect(readsOf(nodes, table), describePlan(nodes)).toEqual([]);
  };

  it("claims through the queue's indexes, reading neither the log nor the history", async () => {
    const nodes = await run(claimStatement(new Date(), { limit: 1, room: new Map([[webhookId, 0]]), perWebhook: 10 }));
    const described = describePlan(nodes);
    const queueReads = readsOf(nodes, "webhook_queue");
    expect(queueReads.length, described).toBeGreaterThan(0);
    expect(queueReads.filter((node) => node["Node Type"] === "Seq Scan").length, described).toBe(0);
    for (const read of queueReads) expect(["webhook_queue_claim_idx", "webhook_queue_pkey"], described).toEqual(expect.arrayContaining(indexesOf(read)));
    expect(
      queueReads.some((read) => indexesOf(read).includes("webhook_queue_claim_idx")),
      described,
    ).toBe(true);
    expect(nodes.find((node) => node["Node Type"] === "ModifyTable" && node["Relation Name"] === "webhook_queue")?.["Actual Rows"], described).toBe(1);
    expectNoHistoryRead(nodes);
  });

  // As the dispatcher claims while some requests are in flight, with the room left to each webhook: the claim that read
  // each message from the log once hashed every day of it there (each claim of a 200,000-message backlog read all of them).
  it("claims a batch, with the room left to each webhook as the dispatcher gives it, reading neither the log nor the history", async () => {
    const batch = await run(claimStatement(new Date(), { limit: 20, perWebhook: 20 }));
    expect(batch.find((node) => node["Node Type"] === "ModifyTable" && node["Relation Name"] === "webhook_queue")?.["Actual Rows"]).toBe(20);
    expectNoHistoryRead(batch);
    expectNoHistoryRead(await run(claimStatement(new Date(), { limit: 10, room: new Map([[rareWebhookId, 9]]), perWebhook: 10 })));
  });

  it("records a batch's outcomes, each message written by its key in its one day", async () => {
    const leasedAt = new Date().toISOString();
    const heads = await sql()<Array<{ message_id: string; history_at: string }>>`
      select message_id, to_char(history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as history_at
      from webhook_queue where webhook_id = ${rareWebhookId} and state = 'ready' order by due_at, position limit 25`;
    const rows: OutcomeRow[] = heads.map((head, index) => ({
      message_id: head.message_id,
      history_at: head.history_at,
      webhook_id: rareWebhookId,
      leased_at: leasedAt,
      // Some succeed (their chain's next message becomes ready), some are retried in place.
      status: index % 2 ? "pending" : "succeeded",
      attempt: 1,
      next_attempt_at: index % 2 ? new Date(Date.now() + 60_000).toISOString() : null,
      attempt_id: `att_plan_record${index}`,
      url: "https://example.com/rare",
      duration_ms: 20,
      request_headers: {},
      request_body: "{}",
      request_body_bytes: 2,
      response_status: index % 2 ? 503 : 200,
      succeeded: !(index % 2),
    }));
    const nodes = await run(recordStatement(rows, new Date()), leaseRareHeads(25, leasedAt));
    const logged = nodes.find((node) => node["Node Type"] === "ModifyTable" && node["Relation Name"] === "webhook_messages");
    expect(logged?.["Actual Rows"], describePlan(nodes)).toBe(heads.length);
    expectEachByKeyInItsDay(nodes);
    // Every message of the batch was found in its day and written.
    const visitedLoops = readsOf(nodes, "webhook_messages")
      .filter(ran)
      .reduce((sum, node) => sum + node["Actual Loops"]!, 0);
    expect(visitedLoops, describePlan(nodes)).toBe(heads.length);
  });

  // Written as `not exists`, the queueing looked its chains up with one scan of the queue, hashed (the planner counted 100
  // incoming rows against the 6,000 queued here).
  it("queues a batch of messages without reading the log's days, each chain found through the queue's index", async () => {
    const incoming = await sql()<Array<{ id: string; type: string; candidate_id: string; created_at: string }>>`
      select e.id, e.type, e.candidate_id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
      from events e where e.company_id = ${companyId} and e.seq % 50 = 1 order by e.seq limit 25`;
    const messages: NewMessage[] = incoming.map((event, index) => ({
      id: `msg_plan_queued${index}`,
      companyId,
      webhookId: rareWebhookId,
      origin: "event",
      eventId: event.id,
      eventType: event.type as NewMessage["eventType"],
      candidateId: event.candidate_id,
      eventTxId: 1n,
      eventSeq: BigInt(index),
      historyAt: new Date(event.created_at),
      event: { createdAt: new Date(event.created_at), change: null },
    }));
    const nodes = await run(enqueueStatement(messages, new Date(), fragment`select 1`));
    const described = describePlan(nodes);
    expect(readsOf(nodes, "webhook_messages").filter(ran), described).toEqual([]);
    const queueReads = readsOf(nodes, "webhook_queue");
    expect(
      queueReads.filter((node) => node["Node Type"] === "Seq Scan"),
      described,
    ).toEqual([]);
    for (const read of queueReads)
      expect(["webhook_queue_chain_idx", "webhook_queue_one_head_idx", "webhook_queue_claim_idx"], described).toEqual(expect.arrayContaining(indexesOf(read)));
  });

  it("ends a turned-off webhook's queue, each message's log row failed by its key in its one day", async () => {
    const [queued] = await sql()<Array<{ count: number }>>`select count(*)::int as count from webhook_queue where webhook_id = ${rareWebhookId}`;
    const nodes = await run(endWebhookQueueStatement(rareWebhookId, new Date()));
    expectEachByKeyInItsDay(nodes);
    const visitedLoops = readsOf(nodes, "webhook_messages")
      .filter(ran)
      .reduce((sum, node) => sum + node["Actual Loops"]!, 0);
    expect(visitedLoops, describePlan(nodes)).toBe(queued!.count);
  });
});

describe("GET /candidates/{id}'s query plan", () => {
  it("reads the candidate through its key", async () => {
    expectIndexOrdered(await plan(candidateByIdQuery(test.handle.sql, companyId, "cand_x")), "candidates", "candidates_pkey");
  });
});

describe("no hot statement is planned as expensive enough to JIT-compile", () => {
  const sql = () => test.handle.sql;
  /**
   * A hot statement, explained in a transaction rolled back after, with JIT on
   * whatever the pools' sessions say: the API's as postgres.js sends them, the
   * worker's as drizzle does (its JSON parameters pass as they are), planned
   * generically as on the worker's connections (db/prepared.ts).
   */
  type HotStatement = (options: string) => Promise<Record<string, any>>;
  const apiStatement =
    (query: (connection: postgres.Sql) => postgres.PendingQuery<any>): HotStatement =>
    async (options) => {
      const connection = await sql().reserve();
      try {
        await connection`begin`;
        await connection`set local jit = on`;
        return firstPlan(await connection`explain (${connection.unsafe(options)}) ${query(connection)}`);
      } finally {
        await connection`rollback`;
        connection.release();
      }
    };
  const workerStatement =
    (query: () => Promise<SQL>): HotStatement =>
    async (options) =>
      workerPlan(await query(), options, { jit: true });
  let keyHash: string;
  const later = { at: new Date(Date.now() - 3 * 24 * 3600_000).toISOString(), id: "cand_zzzz" };
  const pendingRare = async () =>
    sql()<Array<{ id: string; history_at: string; candidate_id: string }>>`
      select id, to_char(history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as history_at, candidate_id
      from webhook_messages where webhook_id = ${rareWebhookId} and status = 'pending' limit 25`;

  const statements: Record<string, HotStatement> = {
    "admission (every request)": apiStatement((c) => admitStatement(c, keyHash)),
    "GET /candidates": apiStatement((c) => candidatePageQuery(c, companyId, { state: "submitted" }, 25)),
    "GET /candidates, next page of an interview": apiStatement((c) => candidatePageQuery(c, companyId, { state: "all", interviewId }, 25, later)),
    "GET /candidates/{id}": apiStatement((c) => candidateByIdQuery(c, companyId, "cand_x")),
    "GET /events": apiStatement((c) => eventPageQuery(c, companyId, { limit: 25 })),
    "GET /events, next page of 100": apiStatement((c) => eventPageQuery(c, companyId, { limit: 100, after: { tx: "1", seq: "5" } })),
    "GET /events of one type (with the tip its cursor moves to)": apiStatement((c) =>
      eventPageQuery(c, companyId, { limit: 25, types: ["candidate.ready"], after: { tx: "1", seq: "5" } }),
    ),
    "GET /interviews": apiStatement((c) => interviewListQuery(c, companyId, { limit: 25 })),
    "the claim": workerStatement(async () => claimStatement(new Date(), { limit: 20, room: new Map([[webhookId, 0]]), perWebhook: 10 })),
    "the recording of a batch": workerStatement(async () => {
      const at = new Date().toISOString();
      const rows: OutcomeRow[] = (await pendingRare()).map((message, index) => ({
        message_id: message.id,
        history_at: message.history_at,
        webhook_id: rareWebhookId,
        leased_at: at,
        status: "succeeded",
        attempt: 1,
        next_attempt_at: null,
        attempt_id: `att_plan${index}`,
        url: "https://example.com/rare",
        duration_ms: 20,
        request_headers: { "content-type": "application/json" },
        request_body: "{}",
        request_body_bytes: 2,
        response_status: 200,
        succeeded: true,
      }));
      return recordStatement(rows, new Date());
    }),
    "queueing a batch of messages": workerStatement(async () =>
      enqueueStatement(
        (await pendingRare()).map(
          (message, index): NewMessage => ({
            id: `msg_plan_jit${index}`,
            companyId,
            webhookId: rareWebhookId,
            origin: "event",
            eventId: `evt_plan_jit${index}`,
            eventType: "candidate.status_changed",
            candidateId: message.candidate_id,
            eventTxId: 1n,
            eventSeq: BigInt(index),
            historyAt: new Date(message.history_at),
            event: { createdAt: new Date(message.history_at), change: null },
          }),
        ),
        new Date(),
        fragment`select 1`,
      ),
    ),
    "fan-out's read of the history": workerStatement(async () => historyAfterPositionStatement(companyId)),
  };

  /** Whether the server has a JIT provider (`pg_jit_available` also says no where the session has `jit` off, as the service's have). */
  const serverCanJit = () =>
    sql().begin(async (transaction) => {
      await transaction`set local jit = on`;
      const [row] = await transaction<Array<{ available: boolean }>>`select pg_jit_available() as available`;
      return row!.available;
    });

  beforeAll(async () => {
    keyHash = hashApiKey((await createApiKey(test.ctx, { companyId, name: "Plans" })).key);
  });

  it.each(Object.keys(statements))("%s: estimated far below jit_above_cost", async (name) => {
    const [setting] = await sql()<Array<{ value: number }>>`select current_setting('jit_above_cost')::float8 as value`;
    const cost = (await statements[name]!("format json")).Plan["Total Cost"] as number;
    expect(cost, `${name} is estimated at ${cost}`).toBeLessThan(setting!.value / 10);
  });

  it.each(Object.keys(statements))("%s: never JIT-compiled where the server can", async (name) => {
    // The embedded server ships without llvmjit.so: there the costs above are what counts.
    if (!(await serverCanJit())) return;
    const plan = await statements[name]!("analyze, format json");
    expect(plan.JIT, JSON.stringify(plan.JIT)).toBeUndefined();
  });
});
