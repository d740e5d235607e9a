/** Interviews as the API shows them (spec 2.3), company-scoped, deleted ones hidden. */
import type postgres from "postgres";
import type { AiStep, accessModes, DocumentStep, InterviewStatus, QuestionType } from "@/db/schema";
import { iso, links } from "./links";
import { keysetPage } from "./paging";
import { likeLiteral } from "./stored-values";

type InterviewRow = {
  id: string;
  title: string;
  status: InterviewStatus;
  language: string;
  access_mode: (typeof accessModes)[number];
  pass_mark: number | null;
  created_at: Date;
  published_at: Date | null;
  closed_at: Date | null;
  ai_step: AiStep | null;
  document_step: DocumentStep | null;
  questions: Array<{ id: string; text: string; type: QuestionType; required: boolean; choices: string[] }>;
};

const columns = (sql: postgres.Sql) => sql`
  i.id, i.title, i.status, i.language, i.access_mode, i.pass_mark, i.created_at, i.published_at, i.closed_at,
  i.ai_step, i.document_step,
  coalesce((
    select json_agg(json_build_object('id', q.id, 'text', q.text, 'type', q.type, 'required', q.required, 'choices', q.choices) order by q.position)
    from interview_questions q where q.interview_id = i.id
  ), '[]') as questions`;

export function renderInterview(row: InterviewRow) {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    language: row.language,
    access_mode: row.access_mode,
    pass_mark: row.pass_mark,
    candidate_link: links.candidateLink(row.id),
    created_at: row.created_at.toISOString(),
    published_at: iso(row.published_at),
    closed_at: iso(row.closed_at),
    steps: {
      form: row.questions.length > 0 ? { questions: row.questions } : null,
      ai_interview: row.ai_step
        ? {
            type: row.ai_step.type,
            mode: row.ai_step.mode,
            language: row.ai_step.language,
            time_limit_minutes: row.ai_step.timeLimitMinutes,
            question_count: row.ai_step.questionCount,
            skills: row.ai_step.skills,
          }
        : null,
      document: row.document_step
        ? {
            label: row.document_step.label,
            description: row.document_step.description,
            accepted_types: row.document_step.acceptedTypes,
            required: row.document_step.required,
          }
        : null,
    },
  };
}

export type InterviewPosition = { createdAt: string; id: string };

type InterviewListOptions = { status?: InterviewStatus; limit: number; after?: InterviewPosition };

/** Newest first; `after` is the last row of the previous page. One extra row tells whether more follow. */
export function interviewListQuery(sql: postgres.Sql, companyId: string, options: InterviewListOptions) {
  return sql<InterviewRow[]>`
    select ${columns(sql)} from interviews i
    where i.company_id = ${companyId} and i.deleted_at is null
      ${options.status ? sql`and i.status = ${options.status}` : sql``}
      ${options.after ? sql`and (i.created_at, i.id) < (${options.after.createdAt}::timestamptz, ${options.after.id})` : sql``}
    order by i.created_at desc, i.id desc
    limit ${options.limit + 1}`;
}

export async function readInterviewPage(sql: postgres.Sql, companyId: string, options: InterviewListOptions) {
  const rows = await interviewListQuery(sql, companyId, options);
  const { page, next } = keysetPage(rows, options.limit, (row) => ({ createdAt: row.created_at.toISOString(), id: row.id }));
  return { interviews: page.map(renderInterview), next };
}

export async function readInterview(sql: postgres.Sql, companyId: string, interviewId: string) {
  const [row] = await sql<InterviewRow[]>`
    select ${columns(sql)} from interviews i
    where i.id = ${interviewId} and i.company_id = ${companyId} and i.deleted_at is null`;
  return row ? renderInterview(row) : null;
}

/**
 * The interview behind a `candidate_link`, for the public page candidates
 * open: not deleted, of a company that is not suspended, with the company's
 * name. Nothing about its candidates.
 */
export async function readInterviewForCandidates(sql: postgres.Sql, interviewId: string) {
  const [row] = await sql<Array<InterviewRow & { company_name: string }>>`
    select ${columns(sql)}, co.name as company_name from interviews i join companies co on co.id = i.company_id
    where i.id = ${interviewId} and i.deleted_at is null and co.suspended_at is null`;
  return row ? { interview: renderInterview(row), companyName: row.company_name } : null;
}

/** Up to 20 interviews whose title or id contains `query`, by title (for pickers in the settings pages). */
export async function searchInterviewTitles(sql: postgres.Sql, companyId: string, query: string) {
  const pattern = `%${likeLiteral(query)}%`;
  return sql<Array<{ id: string; title: string }>>`
    select id, title from interviews
    where company_id = ${companyId} and deleted_at is null and (title ilike ${pattern} or id ilike ${pattern})
    order by title, id
    limit 20`;
}

/** Titles of the company's interviews among `ids` that are not deleted. */
export async function interviewTitles(sql: postgres.Sql, companyId: string, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await sql<Array<{ id: string; title: string }>>`
    select id, title from interviews where company_id = ${companyId} and id in ${sql(unique)} and deleted_at is null`;
  return new Map(rows.map((row) => [row.id, row.title]));
}
