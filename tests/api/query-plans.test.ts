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
 */

import { sql as fragment } from "drizzle-orm";
import type postgres from "postgres";
import { beforeAll, describe, expect, it } from "vitest";
import { interviews } from "@/db/schema";
import { admissionStatement, type PageQuery } from "@/server/api/admission";
import { simulate } from "@/server/demo/simulate";
import { createInterview } from "@/server/domain/interviews";
import { type CandidateFilters, candidateByIdJson, candidateListQuery, candidatePageJson } from "@/server/read/candidates";
import { eventListQuery, eventPageJson } from "@/server/read/events";
import { interviewListQuery } from "@/server/read/interviews";
import { messageListQuery } from "@/server/webhooks/delivery-log";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();
let companyId: string;
let interviewId: string;
/** A day of history older than the API's 30 days, still there (retention runs hourly). */
let oldDay: string;
const webhookId = "wh_plans";

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
  await test.handle.sql`select history_partition_create('events', 'created_at', ${old}::text::date)`;
  await test.handle.sql`
    insert into events (id, company_id, candidate_id, interview_id, type, created_at)
    select 'evt_old' || e.seq, e.company_id, e.candidate_id, e.interview_id, 'candidate.status_changed', now() - interval '40 days'
    from events e where e.company_id = ${companyId} limit 2000`;
  await test.handle
    .sql`insert into webhooks (id, company_id, url, event_types, secret_ciphertext) values (${webhookId}, ${companyId}, 'https://example.com/in', '[]', 'x')`;
  await test.handle.sql`
    insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, status, next_attempt_at, created_at, history_at)
    select 'msg_' || e.seq, e.company_id, ${webhookId}, 'event', e.id, e.type, e.candidate_id, 'succeeded', e.created_at, e.created_at, e.created_at
    from events e where e.company_id = ${companyId} and e.created_at >= now() - interval '30 days'`;
  await test.handle.sql`analyze`;
}, 180_000);

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Parent Relationship"?: string; Plans?: PlanNode[] };

/**
 * The plan's nodes outside SubPlans, and with `perRowLookups`, also outside
 * the inner side of a nested loop that is a `LIMIT` (a lateral lookup of a
 * few rows per row of the list, such as a message's latest resend).
 */
async function plan(query: postgres.PendingQuery<any>, { perRowLookups = false } = {}) {
  const [row] = await test.handle.sql`explain (format json) ${query}`;
  const nodes: PlanNode[] = [];
  const visit = (node: PlanNode) => {
    if (node["Parent Relationship"] === "SubPlan") return;
    if (perRowLookups && node["Parent Relationship"] === "Inner" && node["Node Type"] === "Limit") return;
    nodes.push(node);
    node.Plans?.forEach(visit);
  };
  visit((row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
  return nodes;
}

/** `name` is `parent` or one of its partitions (`events_20261123`, `events_default`), whose indexes are named alike. */
const isOrPartitionOf = (name: string | undefined, parent: string) => name !== undefined && new RegExp(`^${parent}(_(\\d{8}|default))?$`).test(name);

function expectIndexOrdered(nodes: PlanNode[], table: string, index: string) {
  const types = nodes.map((node) => node["Node Type"]);
  expect(types, JSON.stringify(types)).not.toContain("Sort");
  expect(types).not.toContain("Incremental Sort");
  expect(nodes.filter((node) => node["Node Type"] === "Seq Scan").map((node) => node["Relation Name"])).toEqual([]);
  const scans = nodes.filter((node) => isOrPartitionOf(node["Relation Name"], table));
  const described = JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]));
  expect(scans.length, described).toBeGreaterThan(0);
  // Every partition read is read through the list's index.
  for (const scan of scans) expect(isOrPartitionOf(scan["Index Name"], index), described).toBe(true);
}

/** The partitions of `table` a plan reads. */
const partitionsRead = (nodes: PlanNode[], table: string) =>
  nodes.map((node) => node["Relation Name"]).filter((name): name is string => isOrPartitionOf(name, table) && name !== table);

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
    expectIndexOrdered(await plan(candidateListQuery(sql(), companyId, filters, 25, paged ? later : undefined)), "candidates", index);
  });

  it("GET /candidates for one interview", async () => {
    expectIndexOrdered(
      await plan(candidateListQuery(sql(), companyId, { state: "submitted", interviewId }, 25, later)),
      "candidates",
      "candidates_interview_submitted_idx",
    );
    expectIndexOrdered(await plan(candidateListQuery(sql(), companyId, { state: "all", interviewId }, 25)), "candidates", "candidates_interview_started_idx");
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
    expectIndexOrdered(await plan(eventListQuery(sql(), companyId, { limit: 25 })), "events", "events_feed_idx");
    expectIndexOrdered(
      await plan(eventListQuery(sql(), companyId, { limit: 25, types: ["candidate.ready"], after: { tx: "1", seq: "5000" } })),
      "events",
      "events_feed_idx",
    );
    expectIndexOrdered(await plan(eventListQuery(sql(), companyId, { limit: 25, interviewId })), "events", "events_interview_feed_idx");
  });

  it("GET /events reads the days of its 30 days only, each through the index", async () => {
    const nodes = await plan(eventListQuery(sql(), companyId, { limit: 25 }));
    const read = partitionsRead(nodes, "events");
    expect(read.length).toBeGreaterThan(7);
    expect(read).not.toContain(`events_${oldDay}`);
    expect(nodes.map((node) => node["Node Type"])).toContain("Merge Append");
  });
});

describe("the delivery log's query plans (settings)", () => {
  const sql = () => test.handle.sql;

  it("lists a webhook's log newest first through its index in every day, without a sort", async () => {
    const now = new Date();
    const lookups = { perRowLookups: true };
    expectIndexOrdered(await plan(messageListQuery(sql(), companyId, webhookId, { limit: 25 }, now), lookups), "webhook_messages", "webhook_messages_log_idx");
    expectIndexOrdered(
      await plan(messageListQuery(sql(), companyId, webhookId, { limit: 25, before: { createdAt: now.toISOString(), id: "msg_z" } }, now), lookups),
      "webhook_messages",
      "webhook_messages_log_idx",
    );
  });
});

/**
 * What the API really sends: the page as JSON text, inside the one statement
 * that also admits the caller (server/api/admission.ts), where the company is
 * the previewed caller's. The same indexes serve it, in the list's order.
 */
describe("the API's one statement per request", () => {
  const sql = () => test.handle.sql;
  const admitted = (page: PageQuery) => admissionStatement(sql(), "no-such-key-hash", page);

  it("GET /candidates", async () => {
    const later = { at: new Date(Date.now() - 3 * 24 * 3600_000).toISOString(), id: "cand_zzzz" };
    expectIndexOrdered(await plan(candidatePageJson(sql(), companyId, { state: "submitted" }, 25)), "candidates", "candidates_submitted_idx");
    expectIndexOrdered(
      await plan(admitted((company) => candidatePageJson(sql(), company, { state: "submitted" }, 25, later))),
      "candidates",
      "candidates_submitted_idx",
    );
    expectIndexOrdered(
      await plan(admitted((company) => candidatePageJson(sql(), company, { state: "all", interviewId }, 25))),
      "candidates",
      "candidates_interview_started_idx",
    );
  });

  it("GET /candidates/{id}", async () => {
    expectIndexOrdered(await plan(admitted((company) => candidateByIdJson(sql(), company, "cand_x"))), "candidates", "candidates_pkey");
  });

  it("GET /events", async () => {
    expectIndexOrdered(await plan(eventPageJson(sql(), companyId, { limit: 25 })), "events", "events_feed_idx");
    expectIndexOrdered(
      await plan(admitted((company) => eventPageJson(sql(), company, { limit: 25, after: { tx: "1", seq: "5" } }))),
      "events",
      "events_feed_idx",
    );
    expectIndexOrdered(await plan(admitted((company) => eventPageJson(sql(), company, { limit: 25, interviewId }))), "events", "events_interview_feed_idx");
  });
});
