/**
 * Candidates as the API shows them (spec 2.4 to 2.6), always the latest data,
 * company-scoped, previews never visible. One query renders a whole page:
 * answers and documents come as JSON aggregates beside each row.
 */
import type postgres from "postgres";
import type { AiMode, CandidateStatus, Highlight, IncompleteReason, Recommendation, RecordingStatus, ResultState } from "@/db/schema";
import { env } from "@/server/env";
import { recommendationLabels, statusLabels } from "./candidate-labels";
import {
  countLiteral,
  isoText,
  jsonInteger,
  jsonIntegerRecord,
  jsonObject,
  jsonObjectArray,
  jsonString,
  jsonStringArray,
  jsonTime,
  sqlString,
} from "./json-text";
import { iso, links } from "./links";
import { keysetPage } from "./paging";

/** What the read queries select for one candidate: everything the API's Candidate object is rendered from. */
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
  started_at: Date;
  submitted_at: Date | null;
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
  ai_started_at: Date | null;
  ai_mode: AiMode | null;
  ai_language: string | null;
  ai_duration_seconds: number | null;
  ai_questions_asked: number;
  ai_questions_answered: number;
  recording_status: RecordingStatus | null;
  answers: Record<string, { question: string; answer: string }>;
  documents: Array<{ id: string; label: string | null; file_name: string; content_type: string | null; size_bytes: number | null }>;
};

/** The select list every candidate query shares; `c` is candidates, `i` its interview. */
export const candidateColumns = (sql: postgres.Sql) => sql`
  c.id, c.attempt, c.name, c.email, c.phone, c.interview_id, i.title as interview_title, i.pass_mark,
  c.status, c.rejection_reason, c.started_at, c.submitted_at,
  c.result_state, c.incomplete_reason, c.score, c.recommendation, c.summary, c.strengths, c.areas_to_improve,
  c.skills, c.highlights, c.ended_for_conduct,
  c.ai_started_at, c.ai_mode, c.ai_language, c.ai_duration_seconds, c.ai_questions_asked, c.ai_questions_answered,
  c.recording_status,
  coalesce((
    select json_object_agg(a.question_id, json_build_object('question', a.question, 'answer', a.answer))
    from candidate_answers a where a.candidate_id = c.id
  ), '{}') as answers,
  coalesce((
    select json_agg(json_build_object('id', f.id, 'label', f.label, 'file_name', f.file_name,
      'content_type', f.content_type, 'size_bytes', f.size_bytes) order by f.created_at, f.id)
    from files f where f.candidate_id = c.id and f.kind = 'document' and f.deleted_at is null
  ), '[]') as documents`;

export function renderCandidate(row: CandidateSource) {
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
    started_at: row.started_at.toISOString(),
    submitted_at: iso(row.submitted_at),
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
      skills: row.skills,
      highlights: row.highlights,
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
            url: row.recording_status === "ready" ? links.recording(row.id) : null,
          },
          transcript_url: links.transcript(row.id),
        }
      : null,
    answers: row.answers,
    documents: row.documents.map((document) => ({
      id: document.id,
      label: document.label ?? "",
      file_name: document.file_name,
      content_type: document.content_type,
      size_bytes: document.size_bytes,
      url: links.file(document.id),
    })),
    dashboard_url: links.dashboard(row.id),
  };
}

export type Candidate = ReturnType<typeof renderCandidate>;

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

/** Whose candidates a query reads: a company id, or (in the API's one statement) the SQL expression of the admitted caller's company. */
export type CompanyRef = string | postgres.Fragment;

const candidateSort = (sql: postgres.Sql, filters: CandidateFilters) => (filters.state === "submitted" ? sql`c.submitted_at` : sql`c.started_at`);

/** The list's rows in its order, `limit + 1` of them; `select` is what each row gives. */
function candidateListRows(
  sql: postgres.Sql,
  select: postgres.Fragment,
  company: CompanyRef,
  filters: CandidateFilters,
  limit: number,
  after?: CandidatePosition,
) {
  const sortColumn = candidateSort(sql, filters);
  return sql`
    select ${select}, ${sortColumn} as sort_at
    from candidates c join interviews i on i.id = c.interview_id
    where c.company_id = ${company} and not c.is_preview
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

export function candidateListQuery(sql: postgres.Sql, companyId: string, filters: CandidateFilters, limit: number, after?: CandidatePosition) {
  return sql<(CandidateSource & { sort_at: Date })[]>`${candidateListRows(sql, candidateColumns(sql), companyId, filters, limit, after)}`;
}

export async function listCandidates(sql: postgres.Sql, companyId: string, filters: CandidateFilters, limit: number, after?: CandidatePosition) {
  const rows = await candidateListQuery(sql, companyId, filters, limit, after);
  const { page, next } = keysetPage(rows, limit, (row) => ({ at: row.sort_at.toISOString(), id: row.id }));
  return { candidates: page.map(renderCandidate), next };
}

export async function getCandidate(sql: postgres.Sql, companyId: string, candidateId: string) {
  const [row] = await sql<CandidateSource[]>`
    select ${candidateColumns(sql)}
    from candidates c join interviews i on i.id = c.interview_id
    where c.id = ${candidateId} and c.company_id = ${companyId} and not c.is_preview`;
  return row ? renderCandidate(row) : null;
}

/** Latest data of several candidates at once, by id. */
export async function getCandidatesById(sql: postgres.Sql, companyId: string, candidateIds: string[]) {
  if (candidateIds.length === 0) return new Map<string, Candidate>();
  const rows = await sql<CandidateSource[]>`
    select ${candidateColumns(sql)}
    from candidates c join interviews i on i.id = c.interview_id
    where c.id in ${sql(candidateIds)} and c.company_id = ${companyId} and not c.is_preview`;
  return new Map(rows.map((row) => [row.id, renderCandidate(row)]));
}

export async function getTranscript(sql: postgres.Sql, companyId: string, candidateId: string) {
  const [candidate] = await sql`select 1 from candidates where id = ${candidateId} and company_id = ${companyId} and not is_preview`;
  if (!candidate) return null;
  return sql<Array<{ index: number; question: string; answer: string; speaking_seconds: number }>>`
    select index, question, answer, speaking_seconds from transcript_entries
    where candidate_id = ${candidateId} order by index`;
}

/* ---- The API's pages as JSON text, written by PostgreSQL (see json-text.ts) ---- */

/** The plain columns a candidate's JSON text is written from; `c` is candidates, `i` its interview. Plain SQL text, for either client. */
export const candidateRowColumnList = `
  c.id, c.attempt, c.name, c.email, c.phone, c.interview_id, i.title as interview_title, i.pass_mark,
  c.status, c.rejection_reason, c.started_at, c.submitted_at,
  c.result_state, c.incomplete_reason, c.score, c.recommendation, c.summary, c.strengths, c.areas_to_improve,
  c.skills, c.highlights, c.ended_for_conduct,
  c.ai_started_at, c.ai_mode, c.ai_language, c.ai_duration_seconds, c.ai_questions_asked, c.ai_questions_answered,
  c.recording_status`;

export const candidateRowColumns = (sql: postgres.Sql) => sql.unsafe(candidateRowColumnList);

/** `case <value> when 'a' then '<JSON of label a>' … end`, from one of the label maps above. */
const jsonLabel = (value: string, labels: Record<string, string>) =>
  `coalesce(case ${value} ${Object.entries(labels)
    .map(([key, label]) => `when ${sqlString(key)} then ${sqlString(JSON.stringify(label))}`)
    .join(" ")} end, 'null')`;

/**
 * The Candidate object (as `renderCandidate` gives it after the output schema's
 * parse) as the SQL text of a JSON text expression, written from a row `r` of
 * `candidateRowColumns`. The same on every request: built once.
 */
function candidateJsonText(appUrl: string) {
  const col = (name: string) => `r.${name}`;
  const url = (path: string) => `to_json(${sqlString(appUrl)} || ${path})::text`;
  return jsonObject([
    ["id", jsonString(col("id"))],
    ["attempt", jsonInteger(col("attempt"))],
    ["name", jsonString(col("name"))],
    ["email", jsonString(col("email"))],
    ["phone", jsonString(col("phone"))],
    [
      "interview",
      jsonObject([
        ["id", jsonString(col("interview_id"))],
        ["title", jsonString(col("interview_title"))],
      ]),
    ],
    ["status", jsonString(col("status"))],
    ["status_label", jsonLabel(col("status"), statusLabels)],
    ["rejection_reason", jsonString(col("rejection_reason"))],
    ["started_at", jsonTime(col("started_at"))],
    ["submitted_at", jsonTime(col("submitted_at"))],
    [
      "result",
      jsonObject([
        ["state", jsonString(col("result_state"))],
        ["incomplete_reason", jsonString(col("incomplete_reason"))],
        ["score", jsonInteger(col("score"))],
        ["recommendation", jsonString(col("recommendation"))],
        ["recommendation_label", jsonLabel(col("recommendation"), recommendationLabels)],
        ["pass_mark", jsonInteger(col("pass_mark"))],
        ["summary", jsonString(col("summary"))],
        ["strengths", jsonStringArray(col("strengths"))],
        ["areas_to_improve", jsonStringArray(col("areas_to_improve"))],
        ["skills", jsonIntegerRecord(col("skills"))],
        [
          "highlights",
          jsonObjectArray(col("highlights"), (h) =>
            jsonObject([
              ["quote", jsonString(`${h}->>'quote'`)],
              ["type", jsonString(`${h}->>'type'`)],
              ["why", jsonString(`${h}->>'why'`)],
            ]),
          ),
        ],
        ["ended_for_conduct", `(${col("ended_for_conduct")})::text`],
      ]),
    ],
    [
      "ai_interview",
      `case when ${col("ai_started_at")} is null then 'null' else ${jsonObject([
        ["mode", jsonString(col("ai_mode"))],
        ["language", jsonString(col("ai_language"))],
        ["duration_seconds", jsonInteger(col("ai_duration_seconds"))],
        ["questions_asked", jsonInteger(col("ai_questions_asked"))],
        ["questions_answered", jsonInteger(col("ai_questions_answered"))],
        [
          "recording",
          jsonObject([
            ["status", `to_json(coalesce(${col("recording_status")}, 'processing'))::text`],
            ["url", `case when ${col("recording_status")} = 'ready' then ${url(`'/v1/candidates/' || r.id || '/recording'`)} else 'null' end`],
          ]),
        ],
        ["transcript_url", url(`'/v1/candidates/' || r.id || '/transcript'`)],
      ])} end`,
    ],
    [
      "answers",
      `coalesce((
        select '{' || string_agg(to_json(a.question_id)::text || ':' || ${jsonObject([
          ["question", jsonString("a.question")],
          ["answer", jsonString("a.answer")],
        ])}, ',') || '}'
        from candidate_answers a where a.candidate_id = r.id
      ), '{}')`,
    ],
    [
      "documents",
      `coalesce((
        select '[' || string_agg(${jsonObject([
          ["id", jsonString("f.id")],
          ["label", jsonString("coalesce(f.label, '')")],
          ["file_name", jsonString("f.file_name")],
          ["content_type", jsonString("f.content_type")],
          ["size_bytes", jsonInteger("f.size_bytes")],
          ["url", url(`'/v1/files/' || f.id`)],
        ])}, ',' order by f.created_at, f.id) || ']'
        from files f where f.candidate_id = r.id and f.kind = 'document' and f.deleted_at is null
      ), '[]')`,
    ],
    ["dashboard_url", url(`'/candidates/' || r.id`)],
  ]);
}

const builtCandidateJson = new Map<string, string>();

/** The SQL text of a candidate's JSON from a row `r` of `candidateRowColumns` (see `candidateJsonText`), built once per APP_URL. */
export function candidateJson(): string {
  let text = builtCandidateJson.get(env.APP_URL);
  if (!text) {
    text = candidateJsonText(env.APP_URL);
    builtCandidateJson.set(env.APP_URL, text);
  }
  return text;
}

/**
 * One page of the list as JSON text, in one row: `items` (the JSON array of
 * the first `limit` candidates), `has_more`, and the last one's position
 * (`last_at`, `last_id`) when more follow. The extra row is fetched, never written.
 */
export function candidatePageJson(sql: postgres.Sql, company: CompanyRef, filters: CandidateFilters, limit: number, after?: CandidatePosition) {
  const pageSize = sql.unsafe(countLiteral(limit));
  return sql`
    select count(*) > ${pageSize} as has_more,
      '[' || coalesce(string_agg(${sql.unsafe(candidateJson())}, ',' order by r.n) filter (where r.n <= ${pageSize}), '') || ']' as items,
      max(${sql.unsafe(isoText("r.sort_at"))}) filter (where r.n = ${pageSize}) as last_at,
      max(r.id) filter (where r.n = ${pageSize}) as last_id
    from (
      select l.*, row_number() over () as n
      from (${candidateListRows(sql, candidateRowColumns(sql), company, filters, limit, after)}) l
    ) r`;
}

export type CandidatePageJson = { has_more: boolean; items: string; last_at: string | null; last_id: string | null };

/** The position `next_cursor` holds, when another page follows. */
export const candidatePageNext = (page: CandidatePageJson): CandidatePosition | null => (page.has_more ? { at: page.last_at!, id: page.last_id! } : null);

/** One candidate as JSON text (`item`); no row when the company has no such candidate. */
export function candidateByIdJson(sql: postgres.Sql, company: CompanyRef, candidateId: string) {
  return sql`
    select ${sql.unsafe(candidateJson())} as item
    from (
      select ${candidateRowColumns(sql)}
      from candidates c join interviews i on i.id = c.interview_id
      where c.id = ${candidateId} and c.company_id = ${company} and not c.is_preview
    ) r`;
}
