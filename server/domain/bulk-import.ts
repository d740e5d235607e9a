/**
 * Writes many finished or unfinished attempts at once, for benchmarks and
 * large demos. Each attempt's events come from the same rules as single
 * operations (`eventsForChange` from nothing to its final state), appended
 * with their delivery job in the batch's transaction.
 */
import { candidateAnswers, candidates, files, transcriptEntries } from "@/db/schema";
import { appendEvents, systemActor } from "./candidate-changes";
import type { CandidateRow } from "./candidate-row";
import type { DomainContext } from "./context";
import { eventsForChange } from "./event-rules";

export type ImportedAttempt = {
  candidate: CandidateRow;
  answers: Array<typeof candidateAnswers.$inferInsert>;
  transcript: Array<typeof transcriptEntries.$inferInsert>;
  files: Array<typeof files.$inferInsert>;
};

export async function importAttempts(ctx: DomainContext, attempts: ImportedAttempt[]) {
  await ctx.db.transaction(async (tx) => {
    await tx.insert(candidates).values(attempts.map((attempt) => attempt.candidate));
    const answers = attempts.flatMap((attempt) => attempt.answers);
    if (answers.length > 0) await tx.insert(candidateAnswers).values(answers);
    const transcript = attempts.flatMap((attempt) => attempt.transcript);
    if (transcript.length > 0) await tx.insert(transcriptEntries).values(transcript);
    const stored = attempts.flatMap((attempt) => attempt.files);
    if (stored.length > 0) await tx.insert(files).values(stored);
    await appendEvents(
      ctx,
      tx,
      attempts
        .filter((attempt) => attempt.candidate.submittedAt)
        .map(({ candidate }) => ({
          candidate,
          drafts: eventsForChange(null, candidate, systemActor),
          at: candidate.submittedAt!,
        })),
    );
  });
}
