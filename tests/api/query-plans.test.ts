/**
 * Every list query the API runs is served by an index in the list's order:
 * an index scan and no sort, at a realistic volume. SubPlans are the per-row
 * aggregates of one candidate's answers and documents (a few rows each); they
 * are not the list and may order their few rows.
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
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();
let companyId: string;
let interviewId: string;

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
  await test.handle.sql`analyze`;
}, 180_000);

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Parent Relationship"?: string; Plans?: PlanNode[] };

/** The plan's nodes outside SubPlans. */
async function plan(query: postgres.PendingQuery<any>) {
  const [row] = await test.handle.sql`explain (format json) ${query}`;
  const nodes: PlanNode[] = [];
  const visit = (node: PlanNode) => {
    if (node["Parent Relationship"] === "SubPlan") return;
    nodes.push(node);
    node.Plans?.forEach(visit);
  };
  visit((row!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
  return nodes;
}

function expectIndexOrdered(nodes: PlanNode[], table: string, index: string) {
  const types = nodes.map((node) => node["Node Type"]);
  expect(types, JSON.stringify(types)).not.toContain("Sort");
  expect(types).not.toContain("Incremental Sort");
  expect(nodes.filter((node) => node["Node Type"] === "Seq Scan").map((node) => node["Relation Name"])).toEqual([]);
  const scan = nodes.find((node) => node["Relation Name"] === table && node["Node Type"].startsWith("Index"));
  expect(scan?.["Index Name"], JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]))).toBe(index);
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
