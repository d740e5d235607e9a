/**
 * The AI step: the interview itself, its recording and its score. Recording
 * status moves processing → ready | failed | none, and ready → deleted after
 * retention; a recording may still arrive after the result is final.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { files, highlightTypes, type IncompleteReason, recommendations, transcriptEntries } from "@/db/schema";
import { aiDecision } from "./attempts";
import { changeCandidate } from "./candidate-changes";
import { storeCandidateFile, type UploadInput } from "./candidate-files";
import type { DomainContext } from "./context";
import { invalidState, parseInput } from "./errors";
import { isResultFinal } from "./event-rules";
import { loadInterview } from "./interviews";

const aiActor = { type: "ai", name: "AI interviewer" } as const;

export async function startAiInterview(ctx: DomainContext, candidateId: string) {
  return changeCandidate(ctx, candidateId, async (candidate, tx, now) => {
    if (candidate.submittedAt || candidate.endedAt) throw invalidState("The attempt is no longer in progress.");
    if (candidate.aiStartedAt) throw invalidState("The AI interview has already started.");
    const { aiStep } = await loadInterview(tx, candidate.interviewId);
    if (!aiStep) throw invalidState("The interview has no AI step.");
    return {
      patch: { aiStartedAt: now, aiMode: aiStep.mode, aiLanguage: aiStep.language, recordingStatus: "processing" },
    };
  });
}

export const transcriptInput = z.array(
  z.object({
    question: z.string().min(1),
    answer: z.string(),
    speakingSeconds: z.number().int().min(0),
  }),
);

export type FinishAiInput = {
  transcript: z.input<typeof transcriptInput>;
  durationSeconds: number;
  questionsAsked: number;
  endedForConduct?: boolean;
};

export async function finishAiInterview(ctx: DomainContext, candidateId: string, input: FinishAiInput) {
  const transcript = parseInput(transcriptInput, input.transcript);
  return changeCandidate(ctx, candidateId, async (candidate, tx, now) => {
    if (!candidate.aiStartedAt) throw invalidState("The AI interview has not started.");
    if (candidate.aiFinishedAt) throw invalidState("The AI interview has already finished.");
    if (transcript.length > 0) {
      await tx.insert(transcriptEntries).values(transcript.map((entry, index) => ({ candidateId, index, ...entry })));
    }
    return {
      patch: {
        aiFinishedAt: now,
        aiDurationSeconds: input.durationSeconds,
        aiQuestionsAsked: input.questionsAsked,
        aiQuestionsAnswered: transcript.filter((entry) => entry.answer.trim() !== "").length,
        endedForConduct: input.endedForConduct ?? false,
      },
    };
  });
}

export const scoreInput = z.object({
  score: z.number().int().min(0).max(100),
  recommendation: z.enum(recommendations),
  summary: z.string().min(1),
  strengths: z.array(z.string()).default([]),
  areasToImprove: z.array(z.string()).default([]),
  skills: z.record(z.string(), z.number().int().min(0).max(100)).default({}),
  highlights: z.array(z.object({ quote: z.string(), type: z.enum(highlightTypes), why: z.string() })).default([]),
});

/**
 * The AI score is saved. After submission, and while nobody has decided yet
 * (needs_review), the AI also decides passed or did_not_pass by the pass mark.
 */
export async function saveScore(ctx: DomainContext, candidateId: string, input: z.input<typeof scoreInput>) {
  const score = parseInput(scoreInput, input);
  return changeCandidate(ctx, candidateId, async (candidate, tx, now) => {
    if (!candidate.aiFinishedAt) throw invalidState("The AI interview has not finished.");
    if (candidate.scoreStatus !== "pending") throw invalidState(`The score is already ${candidate.scoreStatus}.`);
    const { passMark } = await loadInterview(tx, candidate.interviewId);
    const decision = candidate.submittedAt && candidate.status === "needs_review" ? aiDecision(score.score, passMark) : null;
    return {
      patch: { ...score, scoreStatus: "saved", scoredAt: now, ...(decision ? { status: decision } : {}) },
      by: aiActor,
    };
  });
}

export type ScoringFailure = Extract<IncompleteReason, "scoring_failed" | "too_little_speech" | "no_answers" | "interview_not_finished" | "other">;

/** No score will come; the result becomes final as incomplete with the reason. */
export async function failScoring(ctx: DomainContext, candidateId: string, reason: ScoringFailure) {
  return changeCandidate(ctx, candidateId, (candidate) => {
    if (!candidate.aiFinishedAt) throw invalidState("The AI interview has not finished.");
    if (candidate.scoreStatus !== "pending") throw invalidState(`The score is already ${candidate.scoreStatus}.`);
    return { patch: { scoreStatus: "failed" }, incomplete: reason };
  });
}

export type RecordingInput = UploadInput & { durationSeconds: number };

export async function storeRecording(ctx: DomainContext, candidateId: string, recording: RecordingInput) {
  const fileId = ctx.newId("file");
  return changeCandidate(ctx, candidateId, async (candidate, tx, now) => {
    if (candidate.recordingStatus !== "processing") {
      throw invalidState(`The recording is ${candidate.recordingStatus ?? "not expected"}.`);
    }
    await storeCandidateFile(ctx, tx, candidate, { id: fileId, kind: "recording", upload: recording }, now);
    return {
      patch: { recordingStatus: "ready", recordingFileId: fileId, recordingDurationSeconds: recording.durationSeconds },
    };
  });
}

/** The recording did not arrive or could not be processed (failed), or the device recorded nothing (none). */
export async function loseRecording(ctx: DomainContext, candidateId: string, outcome: "failed" | "none") {
  return changeCandidate(ctx, candidateId, (candidate) => {
    if (candidate.recordingStatus !== "processing") {
      throw invalidState(`The recording is ${candidate.recordingStatus ?? "not expected"}.`);
    }
    return { patch: { recordingStatus: outcome } };
  });
}

/**
 * The score is in but the recording is late: the result becomes final as
 * incomplete/not_delivered_in_time and the recording may still arrive.
 */
export async function markRecordingOverdue(ctx: DomainContext, candidateId: string) {
  return changeCandidate(ctx, candidateId, (candidate) => {
    if (candidate.recordingStatus !== "processing") throw invalidState("The recording is not on its way.");
    if (isResultFinal(candidate)) throw invalidState("The result is already final.");
    if (candidate.scoreStatus === "pending") throw invalidState("The score is still coming.");
    return { patch: {}, incomplete: "not_delivered_in_time" };
  });
}

/** Removes the recording after the retention period; the status becomes deleted. */
export async function deleteRecording(ctx: DomainContext, candidateId: string) {
  let storageKey: string | null = null;
  const candidate = await changeCandidate(ctx, candidateId, async (current, tx, now) => {
    if (current.recordingStatus !== "ready" || !current.recordingFileId) throw invalidState("There is no recording to delete.");
    const [file] = await tx
      .update(files)
      .set({ deletedAt: now })
      .where(and(eq(files.id, current.recordingFileId), eq(files.candidateId, candidateId)))
      .returning({ storageKey: files.storageKey });
    storageKey = file?.storageKey ?? null;
    return { patch: { recordingStatus: "deleted" } };
  });
  // Bytes go only after the commit, so a rolled-back deletion loses nothing.
  if (storageKey) await ctx.storage.remove(storageKey);
  return candidate;
}
