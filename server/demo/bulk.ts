/**
 * Bulk simulation: attempts are generated in order of submission and written
 * in batches, so the event history still grows in time order. Every attempt
 * gets its own rows; recordings and documents share one stored file each.
 */

import { randomBytes } from "node:crypto";
import { aiDecision } from "@/server/domain/attempts";
import type { CandidateRow } from "@/server/domain/candidate-row";
import type { DomainContext } from "@/server/domain/context";
import type { LoadedInterview } from "@/server/domain/interviews";
import { settleResult } from "@/server/domain/result";
import { createIdGenerator, type IdGenerator, newId } from "@/server/ids";
import { type ImportedAttempt, type PreparedImport, prepareImport, writeImport } from "./bulk-import";
import { interviewTemplates, person, scoreFor, transcriptFor } from "./catalog";
import { makePdf, makeWav } from "./media";
import type { Random } from "./random";

/** Candidates per transaction. */
export const bulkBatchSize = 5_000;
/** Batches written at once. */
const writers = 2;
/** Candidates made between two turns of the event loop. */
const partSize = 50;
const day = 24 * 60 * 60 * 1000;
const minute = 60 * 1000;

type BulkOptions = { interviews: LoadedInterview[]; candidates: number; random: Random; now: number; onProgress?: (done: number) => void };

export async function bulkSimulate(base: DomainContext, options: BulkOptions) {
  const ctx: DomainContext = base.newId === newId ? { ...base, newId: pooledIds() } : base;
  const { random, now } = options;
  const companyId = options.interviews[0]!.companyId;
  const recordingKey = `${companyId}/bulk-recording`;
  const documentKey = `${companyId}/bulk-document`;
  const recording = makeWav(3, 7);
  const document = makePdf(["Sample CV"]);
  await ctx.storage.put(recordingKey, recording);
  await ctx.storage.put(documentKey, document);
  const shared = { recordingKey, recordingSize: recording.byteLength, documentKey, documentSize: document.byteLength };

  // Each attempt is anchored on when it was submitted (or ended), evenly spread
  // over two weeks in order, and every event of an attempt happens then: so
  // the history grows in time order across batches.
  const span = 14 * day;
  const anchors = Array.from({ length: options.candidates }, (_, index) => now - span + (span * (index + random.next())) / options.candidates);
  // Two batches' transactions are open at once while the next batch is made,
  // in parts between which the event loop keeps the writes going. A batch's
  // transaction begins only once the one before it has its id, which keeps
  // the history in time order; it then waits for the company's history lock
  // until that one commits (see bulk-import.ts), so it is ready to write the
  // moment it may. Progress is reported in batch order.
  let submitted = 0;
  const writing: Array<Promise<void>> = [];
  for (let offset = 0; offset < anchors.length; offset += bulkBatchSize) {
    const end = Math.min(offset + bulkBatchSize, anchors.length);
    const parts: PreparedImport[] = [];
    for (let from = offset; from < end; from += partSize) {
      const attempts = anchors.slice(from, Math.min(from + partSize, end)).map((anchor) => attemptAt(ctx, options, anchor, shared));
      submitted += attempts.filter((attempt) => attempt.candidate.submittedAt).length;
      parts.push(prepareImport(ctx, attempts));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (writing.length === writers) await writing.shift();
    let hasId!: () => void;
    const idTaken = new Promise<void>((resolve) => {
      hasId = resolve;
    });
    const written = writeImport(ctx, parts, hasId);
    const reported = Promise.all([written, writing.at(-1)]).then(() => options.onProgress?.(end));
    // Awaited later (or never, when an earlier one fails first); until then a failure must not count as unhandled.
    reported.catch(() => {});
    writing.push(reported);
    await Promise.race([idTaken, written]);
  }
  await Promise.all(writing);
  return { candidates: options.candidates, submitted };
}

function attemptAt(
  ctx: DomainContext,
  options: BulkOptions,
  anchor: number,
  shared: { recordingKey: string; recordingSize: number; documentKey: string; documentSize: number },
): ImportedAttempt {
  const { random } = options;
  const interview = random.pick(options.interviews);
  const template = interviewTemplates.find((t) => t.title === interview.title) ?? interviewTemplates[0]!;
  const who = person(random);
  const id = ctx.newId("candidate");
  const outcome = random.weighted([
    ["submitted", 85],
    ["in_progress", 5],
    ["abandoned", 6],
    ["scoring_failed", 4],
  ] as const);
  const start = anchor - random.int(12, 42) * minute;
  const startedAt = new Date(start);
  const finishedAt = new Date(anchor - 2 * minute);
  const submittedAt = outcome === "submitted" || outcome === "scoring_failed" ? new Date(anchor) : null;
  const ai = interview.aiStep;
  const questions = template.aiQuestions.slice(0, ai?.questionCount ?? 0);
  const transcript = ai && outcome !== "in_progress" ? transcriptFor(random, questions, questions.length) : [];
  const score =
    ai && outcome === "submitted"
      ? scoreFor(
          random,
          ai.skills,
          transcript.map((entry) => entry.answer),
        )
      : null;
  const recordingId = ai && outcome !== "in_progress" ? ctx.newId("file") : null;

  const base: CandidateRow = {
    id,
    companyId: interview.companyId,
    interviewId: interview.id,
    attempt: 1,
    isPreview: false,
    previewedByUserId: null,
    ...who,
    status:
      outcome === "in_progress"
        ? "in_progress"
        : outcome === "abandoned"
          ? "abandoned"
          : (aiDecision(score?.score ?? null, interview.passMark) ?? "needs_review"),
    rejectionReason: null,
    startedAt,
    submittedAt,
    endedAt: outcome === "abandoned" ? finishedAt : null,
    aiStartedAt: ai && outcome !== "in_progress" ? startedAt : null,
    aiFinishedAt: ai && outcome !== "in_progress" ? finishedAt : null,
    aiMode: ai?.mode ?? null,
    aiLanguage: ai?.language ?? null,
    aiDurationSeconds: ai && outcome !== "in_progress" ? Math.round((finishedAt.getTime() - start) / 1000) : null,
    aiQuestionsAsked: transcript.length,
    aiQuestionsAnswered: transcript.length,
    recordingStatus: ai ? (recordingId ? "ready" : "processing") : null,
    recordingFileId: recordingId,
    recordingDurationSeconds: recordingId ? 3 : null,
    scoreStatus: score ? "saved" : outcome === "scoring_failed" ? "failed" : "pending",
    scoredAt: score ? finishedAt : null,
    resultState: ai ? "waiting" : "not_applicable",
    incompleteReason: null,
    resultFinalAt: ai ? null : startedAt,
    score: score?.score ?? null,
    recommendation: score?.recommendation ?? null,
    summary: score?.summary ?? null,
    strengths: score?.strengths ?? [],
    areasToImprove: score?.areasToImprove ?? [],
    skills: score?.skills ?? {},
    highlights: score?.highlights ?? [],
    endedForConduct: false,
    createdAt: startedAt,
    updatedAt: submittedAt ?? finishedAt,
    // Rendered with the batch (prepareImport).
    apiJson: null,
  };
  const candidate: CandidateRow = ai
    ? { ...base, ...settleResult(base, submittedAt ?? finishedAt, outcome === "scoring_failed" ? "scoring_failed" : undefined) }
    : base;

  const answers = interview.questions
    .filter((question) => question.required)
    .map((question) => ({
      candidateId: id,
      questionId: question.id,
      question: question.text,
      answer:
        question.type === "yes_no"
          ? random.pick(["Yes", "No"])
          : question.type === "mcq"
            ? random.pick(question.choices)
            : random.pick(template.sampleAnswers[question.position] ?? ["Yes"]),
      answeredAt: startedAt,
    }));
  const stored: ImportedAttempt["files"] = [];
  if (recordingId) {
    stored.push({
      id: recordingId,
      companyId: candidate.companyId,
      candidateId: id,
      kind: "recording",
      fileName: "interview-recording.wav",
      contentType: "audio/wav",
      sizeBytes: shared.recordingSize,
      storageKey: shared.recordingKey,
      createdAt: finishedAt,
    });
  }
  if (interview.documentStep && submittedAt) {
    stored.push({
      id: ctx.newId("file"),
      companyId: candidate.companyId,
      candidateId: id,
      kind: "document",
      label: interview.documentStep.label,
      fileName: "cv.pdf",
      contentType: "application/pdf",
      sizeBytes: shared.documentSize,
      storageKey: shared.documentKey,
      createdAt: finishedAt,
    });
  }
  return {
    candidate,
    interview: { title: interview.title, passMark: interview.passMark },
    answers,
    transcript: transcript.map((entry, index) => ({ candidateId: id, index, ...entry })),
    files: stored,
  };
}

/**
 * The same ids as `newId` (prefix and 128 random bits), from random bytes
 * drawn 64 KiB at a time: one call into crypto for 4,096 ids instead of one
 * each, which counts at millions of ids. A context's own generator (a seeded
 * one in tests) is kept as it is.
 */
function pooledIds(): IdGenerator {
  let pool = randomBytes(65_536);
  let used = 0;
  return createIdGenerator((size) => {
    if (used + size > pool.length) {
      pool = randomBytes(65_536);
      used = 0;
    }
    used += size;
    return pool.subarray(used - size, used);
  });
}
