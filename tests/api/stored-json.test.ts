/**
 * Each candidate's API JSON is rendered once per change and stored
 * (server/domain/stored-candidates.ts). These check that no write path
 * leaves a stale text behind, that the stored text is byte for byte what the
 * API's output schema gives (reads and webhook bodies use it as it is), that
 * APP_URL goes in when a text is read, and that the start-up pass renders
 * rows stored without a text. Values are chosen to be awkward: control
 * characters, quotes, non-ASCII text, integer-like and long keys, `85.0`,
 * extra members, microseconds.
 */

import { sql as fragment } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { candidateSchema, eventSchema } from "@/server/api/v1/schemas";
import { simulate } from "@/server/demo/simulate";
import { renderUnrenderedCandidates, storeCandidateJson } from "@/server/domain/stored-candidates";
import { env } from "@/server/env";
import { type CandidateSource, candidateJsonText, candidateSourceSelect, readCandidate } from "@/server/read/candidates";
import { eventJsonText, readEventPage } from "@/server/read/events";
import { appUrlMark, withAppUrl } from "@/server/read/links";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();
let singleCompany: string;
let bulkCompany: string;

beforeAll(async () => {
  singleCompany = await makeCompany(test.ctx, "One change at a time");
  await simulate(test.ctx, { companyId: singleCompany, interviews: 3, candidates: 120, seed: 7 });
  bulkCompany = await makeCompany(test.ctx, "Bulk");
  await simulate(test.ctx, { companyId: bulkCompany, interviews: 2, candidates: 80, seed: 8, bulk: true });
}, 120_000);

/** Each candidate's stored text beside a render of what the database holds now. */
async function storedAndFresh(companyId: string) {
  const sources = await test.handle.db.execute<CandidateSource>(
    fragment`${fragment.raw(candidateSourceSelect)} where c.company_id = ${companyId} order by c.id`,
  );
  const stored = await test.handle.sql<Array<{ id: string; api_json: string | null }>>`
    select id, api_json from candidates where company_id = ${companyId} order by id`;
  return sources.map((source, index) => ({ id: source.id, stored: stored[index]!.api_json, fresh: candidateJsonText(source) }));
}

async function everyEvent(companyId: string) {
  const all = [];
  for (let after: Parameters<typeof readEventPage>[2]["after"]; ; ) {
    const page = await readEventPage(test.handle.sql, companyId, { limit: 100, after });
    all.push(...page.events);
    if (!page.hasMore) return all;
    after = page.next;
  }
}

describe("stored candidate JSON", () => {
  it("is a fresh render of every candidate after each write path (single changes and the bulk import)", async () => {
    for (const companyId of [singleCompany, bulkCompany]) {
      const rows = await storedAndFresh(companyId);
      expect(rows.length).toBeGreaterThan(50);
      for (const row of rows) expect(row.stored, row.id).toBe(row.fresh);
    }
  });

  it("is byte for byte what the output schema gives, for candidates and for the events around them", async () => {
    const sql = test.handle.sql;
    const [odd] = await sql<[{ id: string }]>`select id from candidates where company_id = ${singleCompany} and submitted_at is not null order by id limit 1`;
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
    await sql`update interviews set title = ${"Title with \u0003 and 'quotes'"} where company_id = ${singleCompany}`;
    // What a write path that changes these must do (stored-candidates.ts).
    const ids = (await sql<Array<{ id: string }>>`select id from candidates where company_id = ${singleCompany}`).map((row) => row.id);
    await test.handle.db.transaction((tx) => storeCandidateJson(tx, ids));

    for (const row of await storedAndFresh(singleCompany)) {
      expect(row.stored, row.id).toBe(row.fresh);
      const sent = withAppUrl(row.stored!);
      expect(sent, row.id).toBe(JSON.stringify(candidateSchema.parse(JSON.parse(sent))));
    }
    const oddCandidate = await readCandidate(sql, singleCompany, odd.id);
    expect(oddCandidate!.name).toBe('Zoë "Q" \\ \u0001\u001f\t\n\u2028 ✓ 𝄞');
    expect(oddCandidate!.result.highlights).toEqual([{ quote: "q\u0002", type: "strength", why: 'w"' }]);

    const events = await everyEvent(singleCompany);
    expect(events.length).toBeGreaterThan(100);
    const stored = new Map((await storedAndFresh(singleCompany)).map((row) => [row.id, row.stored!]));
    for (const event of events) {
      const body = eventJsonText(event, stored.get(event.candidate.id)!);
      expect(body, event.id).toBe(JSON.stringify(eventSchema.parse(JSON.parse(body))));
      expect(JSON.parse(body)).toEqual(eventSchema.parse(event));
    }
  });

  it("holds APP_URL as a mark, put in when the text is read", async () => {
    const [row] = await test.handle.sql<[{ id: string; api_json: string }]>`
      select id, api_json from candidates where company_id = ${singleCompany} and ai_started_at is not null limit 1`;
    expect(row.api_json).toContain(`"dashboard_url":"${appUrlMark}/candidates/${row.id}"`);
    expect(row.api_json).not.toContain(env.APP_URL);
    const candidate = await readCandidate(test.handle.sql, singleCompany, row.id);
    expect(candidate!.dashboard_url).toBe(`${env.APP_URL}/candidates/${row.id}`);
    expect(candidate!.ai_interview!.transcript_url).toBe(`${env.APP_URL}/v1/candidates/${row.id}/transcript`);
  });

  it("is rendered at start-up for rows stored without one, leaving rendered rows as they are", async () => {
    const sql = test.handle.sql;
    const before = await storedAndFresh(bulkCompany);
    const cleared = before.slice(0, 7).map((row) => row.id);
    await sql`update candidates set api_json = null where id in ${sql(cleared)}`;
    expect(await renderUnrenderedCandidates(test.handle.db)).toBe(cleared.length);
    expect(await storedAndFresh(bulkCompany)).toEqual(before);
    expect(await renderUnrenderedCandidates(test.handle.db)).toBe(0);
  });
});
