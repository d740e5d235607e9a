/**
 * Candidates as the API shows them (spec 2.4 to 2.6), always the latest data,
 * company-scoped, previews never visible. One query renders a whole page:
 * answers and documents come as JSON aggregates beside each row.
 */
import type postgres from "postgres";
import type { AiMode, CandidateStatus, Highlight, IncompleteReason, Recommendation, RecordingStatus, ResultState } from "@/db/schema";
import { iso, links } from "./links";
import { keysetPage } from "./paging";

export const statusLabels: Record<CandidateStatus, string> = {
  in_progress: "In progress",
  passed: "Passed",
  needs_review: "Needs review",
  did_not_pass: "Did not pass",
  shortlisted: "Shortlisted",
  on_hold: "On hold",
  rejected: "Rejected",
  cancelled: "Cancelled",
  abandoned: "Abandoned",
};

export const recommendationLabels: Record<Recommendation, string> = {
  strongly_recommend: "Strongly recommend",
  recommended: "Recommended",
  consider: "Consider",
  not_recommended: "Not recommended",
};

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

export function candidateListQuery(sql: postgres.Sql, companyId: string, filters: CandidateFilters, limit: number, after?: CandidatePosition) {
  const sortColumn = filters.state === "submitted" ? sql`c.submitted_at` : sql`c.started_at`;
  return sql<(CandidateSource & { sort_at: Date })[]>`
    select ${candidateColumns(sql)}, ${sortColumn} as sort_at
    from candidates c join interviews i on i.id = c.interview_id
    where c.company_id = ${companyId} and not c.is_preview
      ${filters.state === "submitted" ? sql`and c.submitted_at is not null` : sql``}
      ${filters.state === "in_progress" ? sql`and c.status = 'in_progress'` : sql``}
      ${filters.interviewId ? sql`and c.interview_id = ${filters.interviewId}` : sql``}
      ${filters.statuses ? sql`and c.status in ${sql(filters.statuses)}` : sql``}
      ${filters.submittedAfter ? sql`and c.submitted_at >= ${filters.submittedAfter}::timestamptz` : sql``}
      ${filters.submittedBefore ? sql`and c.submitted_at < ${filters.submittedBefore}::timestamptz` : sql``}
      ${after ? sql`and (${sortColumn}, c.id) < (${after.at}::timestamptz, ${after.id})` : sql``}
    order by ${sortColumn} desc, c.id desc
    limit ${limit + 1}`;
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
