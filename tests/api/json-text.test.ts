/**
 * The JSON text PostgreSQL writes for the API's pages (server/read/json-text.ts)
 * is byte for byte what the Node path writes: `JSON.stringify` of the rendered
 * objects after the output schema's parse. Every kind of candidate and event
 * the simulator makes, plus values chosen to be awkward (control characters,
 * quotes, non-ASCII text, integer-like and long keys, `85.0`, extra members,
 * microseconds).
 */

import type postgres from "postgres";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { candidateSchema, eventSchema } from "@/server/api/v1/schemas";
import { simulate } from "@/server/demo/simulate";
import {
  type CandidateFilters,
  type CandidatePageJson,
  candidateByIdJson,
  candidatePageJson,
  candidatePageNext,
  getCandidate,
  listCandidates,
} from "@/server/read/candidates";
import { type EventPageJson, eventPageJson, eventPageNext, listEvents } from "@/server/read/events";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();
let companyId: string;
let candidateIds: string[];

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Bytes");
  await simulate(test.ctx, { companyId, interviews: 3, candidates: 120, seed: 7 });
  const sql = test.handle.sql;
  const [odd] = await sql<[{ id: string }]>`select id from candidates where company_id = ${companyId} and submitted_at is not null order by id limit 1`;
  await sql`
    update candidates set
      name = ${'Zoë "Q" \\ \u0001\u001f\t\n\u2028 ✓ 𝄞'},
      phone = ${"+44 20 '7946'"},
      summary = ${"line\r\nbreak\u007f"},
      skills = ${'{"b": 1, "10": 2, "a": 85.0, "2": 4, "0": 0, "01": 7, "4294967295": 9, "Communication skills": 100}'}::text::jsonb,
      highlights = ${'[{"why": "w\\"", "type": "strength", "quote": "q\\u0002", "extra": 1}]'}::text::jsonb,
      strengths = ${'["a\\"b", "ü"]'}::text::jsonb,
      started_at = started_at + interval '123456 microseconds'
    where id = ${odd.id}`;
  await sql`update interviews set title = ${"Title with \u0003 and 'quotes'"} where company_id = ${companyId}`;
  candidateIds = (await sql<Array<{ id: string }>>`select id from candidates where company_id = ${companyId} and not is_preview order by id`).map(
    (row) => row.id,
  );
}, 120_000);

const candidates = z.array(candidateSchema);
const events = z.array(eventSchema);

async function one<T>(query: postgres.PendingQuery<any>) {
  const rows = await query;
  return rows[0] as T | undefined;
}

describe("JSON text written by PostgreSQL", () => {
  it("writes every candidate as the Node path does", async () => {
    const sql = test.handle.sql;
    expect(candidateIds.length).toBeGreaterThan(50);
    for (const id of candidateIds) {
      const node = JSON.stringify(candidateSchema.parse(await getCandidate(sql, companyId, id)));
      const text = await one<{ item: string }>(candidateByIdJson(sql, companyId, id));
      expect(text?.item, id).toBe(node);
    }
    expect(await one(candidateByIdJson(sql, companyId, "cand_nope"))).toBeUndefined();
    expect(await one(candidateByIdJson(sql, "co_other", candidateIds[0]!))).toBeUndefined();
  });

  it.each<[string, CandidateFilters, number, number]>([
    ["submitted", { state: "submitted" }, 25, 2],
    ["all", { state: "all" }, 7, 2],
    ["in progress", { state: "in_progress" }, 3, 1],
    ["by status", { state: "submitted", statuses: ["passed", "needs_review"] }, 10, 2],
  ])("writes every page of the %s list as the Node path does", async (_name, filters, limit, minPages) => {
    const sql = test.handle.sql;
    let after: { at: string; id: string } | undefined;
    let pages = 0;
    do {
      const node = await listCandidates(sql, companyId, filters, limit, after);
      const text = (await one<CandidatePageJson>(candidatePageJson(sql, companyId, filters, limit, after)))!;
      expect(text.items).toBe(JSON.stringify(candidates.parse(node.candidates)));
      expect(candidatePageNext(text)).toEqual(node.next);
      after = node.next ?? undefined;
      pages++;
    } while (after);
    expect(pages).toBeGreaterThanOrEqual(minPages);
  });

  it.each<[string, Parameters<typeof listEvents>[2]]>([
    ["all", { limit: 25 }],
    ["of one type", { limit: 10, types: ["candidate.status_changed"] }],
  ])("writes every page of the history (%s) as the Node path does", async (_name, options) => {
    const sql = test.handle.sql;
    let after = options.after;
    let hasMore = true;
    let pages = 0;
    while (hasMore) {
      const node = await listEvents(sql, companyId, { ...options, after });
      const text = (await one<EventPageJson>(eventPageJson(sql, companyId, { ...options, after })))!;
      expect(text.items).toBe(JSON.stringify(events.parse(node.events)));
      expect(text.has_more).toBe(node.hasMore);
      expect(eventPageNext(text, after)).toEqual(node.next);
      after = node.next;
      hasMore = node.hasMore;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    // Past the end: an empty page that moves to the horizon.
    const empty = (await one<EventPageJson>(eventPageJson(sql, companyId, { ...options, after })))!;
    expect(empty.items).toBe("[]");
    expect(eventPageNext(empty, after)).toEqual((await listEvents(sql, companyId, { ...options, after })).next);
  });
});
