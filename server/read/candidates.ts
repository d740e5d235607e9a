/**
 * Candidates as the API shows them (spec 2.4 to 2.6), always the latest data,
 * company-scoped, previews never visible. Each candidate's JSON is rendered
 * once per change, in the change's transaction (server/domain/stored-candidates.ts),
 * and stored with it; a read only fetches stored texts in the list's order.
 */

import { randomBytes } from "node:crypto";
import type postgres from "postgres";
import type { AiMode, CandidateStatus, Highlight, IncompleteReason, Recommendation, RecordingStatus, ResultState } from "@/db/schema";
import { recommendationLabels, statusLabels } from "./candidate-labels";
import { apiAddresses, appUrlMark, withAppUrl } from "./links";
import { countLiteral, keysetPage } from "./paging";
import { isoText } from "./stored-values";

/**
 * What a candidate's JSON is rendered from: one row of `candidateSourceSelect`.
 * Instants are ISO text as `toISOString()` writes it (UTC, milliseconds, `Z`).
 */
export type CandidateSource = {
  id: string;
  attempt: number;
  name: string;
  email: string;
  phone: string | null;
  interview_id: string;
  interview_title: string;
  pass_mark: number | null;
  status: CandidateStatus;
  rejection_reason: string | null;
  started_at: string;
  submitted_at: string | null;
  result_state: ResultState;
  incomplete_reason: IncompleteReason | null;
  score: number | null;
  recommendation: Recommendation | null;
  summary: string | null;
  strengths: string[];
  areas_to_improve: string[];
  skills: Record<string, number>;
  highlights: Highlight[];
  ended_for_conduct: boolean;
  ai_started_at: string | null;
  ai_mode: AiMode | null;
  ai_language: string | null;
  ai_duration_seconds: number | null;
  ai_questions_asked: number;
  ai_questions_answered: number;
  recording_status: RecordingStatus | null;
  answers: Record<string, { question: string; answer: string }>;
  documents: Array<{ id: string; label: string | null; file_name: string; content_type: string | null; size_bytes: number | null }>;
};

/** What a candidate's JSON shows beyond its own row: its interview's title and pass mark, its answers and its documents. */
export type CandidateExtras = Pick<CandidateSource, "interview_title" | "pass_mark" | "answers" | "documents">;

/** The select list of a candidate's extras, `c` being candidates and `i` their interview. Plain SQL text, for either client. */
export const candidateExtrasColumns = `
  i.title as interview_title, i.pass_mark,
  coalesce((
    select json_object_agg(a.question_id, json_build_object('question', a.question, 'answer', a.answer))
    from candidate_answers a where a.candidate_id = c.id
  ), '{}') as answers,
  coalesce((
    select json_agg(json_build_object('id', f.id, 'label', f.label, 'file_name', f.file_name,
      'content_type', f.content_type, 'size_bytes', f.size_bytes) order by f.created_at, f.id)
    from files f where f.candidate_id = c.id and f.kind = 'document' and f.deleted_at is null
  ), '[]') as documents`;

/**
 * The statement that reads candidates' sources, `c` being candidates and `i`
 * their interview; the caller adds the `where`. Plain SQL text, so the domain's
 * drizzle transactions and the start-up pass run the same one.
 */
export const candidateSourceSelect = `
  select c.id, c.attempt, c.name, c.email, c.phone, c.interview_id,
    c.status, c.rejection_reason, ${isoText("c.started_at")} as started_at, ${isoText("c.submitted_at")} as submitted_at,
    c.result_state, c.incomplete_reason, c.score, c.recommendation, c.summary, c.strengths, c.areas_to_improve,
    c.skills, c.highlights, c.ended_for_conduct,
    ${isoText("c.ai_started_at")} as ai_started_at, c.ai_mode, c.ai_language, c.ai_duration_seconds,
    c.ai_questions_asked, c.ai_questions_answered, c.recording_status,
    ${candidateExtrasColumns}
  from candidates c join interviews i on i.id = c.interview_id`;

/**
 * What the addresses start with while a candidate is rendered; in the text it
 * becomes `appUrlMark`. Random in each process, so no value can hold it.
 */
const addressPrefix = randomBytes(12).toString("hex");
const renderedLinks = apiAddresses(addressPrefix);

/** Orders an object's keys as jsonb keeps them (shorter first, then by bytes), so a text is the same however its source was read. */
function inJsonbOrder<Value>(record: Record<string, Value>): Record<string, Value> {
  const byteLength = (key: string) => Buffer.byteLength(key);
  const entries = Object.entries(record).sort(([a], [b]) => byteLength(a) - byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return Object.fromEntries(entries);
}

/** The Candidate object of spec 2.4, keys in the output schema's order. */
function renderCandidate(row: CandidateSource) {
  return {
    id: row.id,
    attempt: row.attempt,
    name: row.name,
    email: row.email,
    phone: row.phone,
    interview: { id: row.interview_id, title: row.interview_title },
    status: row.status,
    status_label: statusLabels[row.status],
    rejection_reason: row.rejection_reason,
    started_at: row.started_at,
    submitted_at: row.submitted_at,
    result: {
      state: row.result_state,
      incomplete_reason: row.incomplete_reason,
      score: row.score,
      recommendation: row.recommendation,
      recommendation_label: row.recommendation ? recommendationLabels[row.recommendation] : null,
      pass_mark: row.pass_mark,
      summary: row.summary,
      strengths: row.strengths,
      areas_to_improve: row.areas_to_improve,
      skills: inJsonbOrder(row.skills),
      highlights: row.highlights.map(({ quote, type, why }) => ({ quote, type, why })),
      ended_for_conduct: row.ended_for_conduct,
    },
    ai_interview: row.ai_started_at
      ? {
          mode: row.ai_mode!,
          language: row.ai_language!,
          duration_seconds: row.ai_duration_seconds,
          questions_asked: row.ai_questions_asked,
          questions_answered: row.ai_questions_answered,
          recording: {
            status: row.recording_status ?? "processing",
            url: row.recording_status === "ready" ? renderedLinks.recording(row.id) : null,
          },
          transcript_url: renderedLinks.transcript(row.id),
        }
      : null,
    answers: row.answers,
    documents: row.documents.map((document) => ({
      id: document.id,
      label: document.label ?? "",
      file_name: document.file_name,
      content_type: document.content_type,
      size_bytes: document.size_bytes,
      url: renderedLinks.file(document.id),
    })),
    dashboard_url: renderedLinks.dashboard(row.id),
  };
}

export type Candidate = ReturnType<typeof renderCandidate>;

/**
 * A candidate's JSON text as stored (`candidates.api_json`), its addresses
 * under `appUrlMark`: the one renderer of a candidate. Stored texts, bulk
 * imports and samples all come from here.
 */
export const candidateJsonText = (row: CandidateSource) => JSON.stringify(renderCandidate(row)).replaceAll(`"${addressPrefix}`, `"${appUrlMark}`);

/** Which list ordering a GET /candidates state uses. */
export const candidateStates = ["submitted", "in_progress", "all"] as const;
export type CandidateState = (typeof candidateStates)[number];

export type CandidateFilters = {
  state: CandidateState;
  interviewId?: string;
  statuses?: CandidateStatus[];
  submittedAfter?: string;
  submittedBefore?: string;
};

/** Keyset position: the sort time (submitted_at or started_at) and the id. */
export type CandidatePosition = { at: string; id: string };

const candidateSort = (sql: postgres.Sql, filters: CandidateFilters) => (filters.state === "submitted" ? sql`c.submitted_at` : sql`c.started_at`);

/**
 * One page of the list: the first `limit` candidates' stored texts (`json`)
 * and their positions, and one more row when another page follows.
 */
export function candidatePageQuery(sql: postgres.Sql, companyId: string, filters: CandidateFilters, limit: number, after?: CandidatePosition) {
  const sortColumn = candidateSort(sql, filters);
  return sql<Array<{ json: string; id: string; sort_at: string }>>`
    select c.api_json as json, c.id, ${sql.unsafe(isoText(filters.state === "submitted" ? "c.submitted_at" : "c.started_at"))} as sort_at
    from candidates c
    where c.company_id = ${companyId} and not c.is_preview
      ${filters.state === "submitted" ? sql`and c.submitted_at is not null` : sql``}
      ${filters.state === "in_progress" ? sql`and c.status = 'in_progress'` : sql``}
      ${filters.interviewId ? sql`and c.interview_id = ${filters.interviewId}` : sql``}
      ${filters.statuses ? sql`and c.status in ${sql(filters.statuses)}` : sql``}
      ${filters.submittedAfter ? sql`and c.submitted_at >= ${filters.submittedAfter}::timestamptz` : sql``}
      ${filters.submittedBefore ? sql`and c.submitted_at < ${filters.submittedBefore}::timestamptz` : sql``}
      ${after ? sql`and (${sortColumn}, c.id) < (${after.at}::timestamptz, ${after.id})` : sql``}
    order by ${sortColumn} desc, c.id desc
    limit ${sql.unsafe(countLiteral(limit + 1))}`;
}

export async function readCandidatePage(sql: postgres.Sql, companyId: string, filters: CandidateFilters, limit: number, after?: CandidatePosition) {
  const rows = await candidatePageQuery(sql, companyId, filters, limit, after);
  const { page, next } = keysetPage(rows, limit, (row): CandidatePosition => ({ at: row.sort_at, id: row.id }));
  return { candidates: page.map((row) => storedCandidate(row.json)), next };
}

/** One candidate's stored text; no row when the company has no such candidate. */
export function candidateByIdQuery(sql: postgres.Sql, companyId: string, candidateId: string) {
  return sql<Array<{ json: string }>>`
    select c.api_json as json from candidates c
    where c.id = ${candidateId} and c.company_id = ${companyId} and not c.is_preview`;
}

export async function readCandidate(sql: postgres.Sql, companyId: string, candidateId: string): Promise<Candidate | null> {
  const [row] = await candidateByIdQuery(sql, companyId, candidateId);
  return row ? storedCandidate(row.json) : null;
}

/** A stored text as the object the API answers with, its addresses under APP_URL. */
export const storedCandidate = (json: string): Candidate => JSON.parse(withAppUrl(json));

export async function readTranscript(sql: postgres.Sql, companyId: string, candidateId: string) {
  const [candidate] = await sql`select 1 from candidates where id = ${candidateId} and company_id = ${companyId} and not is_preview`;
  if (!candidate) return null;
  return sql<Array<{ index: number; question: string; answer: string; speaking_seconds: number }>>`
    select index, question, answer, speaking_seconds from transcript_entries
    where candidate_id = ${candidateId} order by index`;
}
