/**
 * Each candidate's API JSON, stored with the candidate (`candidates.api_json`)
 * and rendered again in the transaction of every change that alters it: the
 * candidate's row, its answers and its documents all change through
 * `changeCandidate` (candidate-changes.ts), which renders the row it is about
 * to write with its extras read once (`readCandidateExtras`); a new attempt is
 * rendered by `startAttempt`, a bulk import renders its own rows. Reads and
 * webhook bodies then only put stored texts together.
 *
 * The interview's title and pass mark are part of the text too; no write path
 * changes them once candidates exist. One that does must render its
 * candidates again here, in its own transaction.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { type CandidateExtras, type CandidateSource, candidateExtrasColumns, candidateJsonText, candidateSourceSelect } from "@/server/read/candidates";
import { iso } from "@/server/read/links";
import type { CandidateRow } from "./candidate-row";

/** What the renderer takes, from a candidate's row as drizzle gives it and its extras. */
export function candidateSource(row: CandidateRow, extras: CandidateExtras): CandidateSource {
  return {
    id: row.id,
    attempt: row.attempt,
    name: row.name,
    email: row.email,
    phone: row.phone,
    interview_id: row.interviewId,
    status: row.status,
    rejection_reason: row.rejectionReason,
    started_at: row.startedAt.toISOString(),
    submitted_at: iso(row.submittedAt),
    result_state: row.resultState,
    incomplete_reason: row.incompleteReason,
    score: row.score,
    recommendation: row.recommendation,
    summary: row.summary,
    strengths: row.strengths,
    areas_to_improve: row.areasToImprove,
    skills: row.skills,
    highlights: row.highlights,
    ended_for_conduct: row.endedForConduct,
    ai_started_at: iso(row.aiStartedAt),
    ai_mode: row.aiMode,
    ai_language: row.aiLanguage,
    ai_duration_seconds: row.aiDurationSeconds,
    ai_questions_asked: row.aiQuestionsAsked,
    ai_questions_answered: row.aiQuestionsAnswered,
    recording_status: row.recordingStatus,
    ...extras,
  };
}

/** The candidate's extras as the transaction sees them now: one statement. */
export async function readCandidateExtras(tx: Executor, candidateId: string): Promise<CandidateExtras> {
  const [extras] = await tx.execute<CandidateExtras>(
    sql`select ${sql.raw(candidateExtrasColumns)} from candidates c join interviews i on i.id = c.interview_id where c.id = ${candidateId}`,
  );
  return extras!;
}

/** Renders the candidates from what the transaction sees now and stores the texts: two statements, whatever the number. */
export async function storeCandidateJson(tx: Executor, candidateIds: string[]): Promise<void> {
  if (candidateIds.length === 0) return;
  const sources = await tx.execute<CandidateSource>(sql`${sql.raw(candidateSourceSelect)} where c.id = any(${sql.param(candidateIds)}::text[])`);
  await writeTexts(tx, sources);
}

async function writeTexts(tx: Executor, sources: readonly CandidateSource[], onlyUnrendered = false) {
  if (sources.length === 0) return;
  await tx.execute(sql`
    update candidates c set api_json = t.json
    from unnest(${sql.param(sources.map((source) => source.id))}::text[], ${sql.param(sources.map(candidateJsonText))}::text[]) as t(id, json)
    where c.id = t.id ${onlyUnrendered ? sql`and c.api_json is null` : sql``}`);
}

const backfillBatch = 500;

/**
 * Renders every candidate that has no stored text yet: the rows written
 * before the column existed, at start-up, in batches of
 * their own, so no lock is held for long. A row a change renders meanwhile is
 * left as that change stored it.
 */
export async function renderUnrenderedCandidates(db: Executor): Promise<number> {
  let rendered = 0;
  let after = "";
  for (;;) {
    const sources = await db.execute<CandidateSource>(
      sql`${sql.raw(candidateSourceSelect)} where c.api_json is null and c.id > ${after} order by c.id limit ${backfillBatch}`,
    );
    await writeTexts(db, sources, true);
    rendered += sources.length;
    if (sources.length < backfillBatch) return rendered;
    after = sources.at(-1)!.id;
  }
}
