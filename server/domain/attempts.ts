/**
 * A candidate's attempt from start to submission, or to its end without one.
 * Status transitions are a product decision (docs/decisions/0087-spec-candidate-statuses.md):
 * in_progress → (submission) needs_review, passed or did_not_pass;
 * in_progress → cancelled, abandoned, or a team-chosen status when the team
 * moves the attempt on. Unsubmitted attempts never produce events.
 */

import path from "node:path";
import { and, count, eq, isNull, max, sql } from "drizzle-orm";
import { type CandidateStatus, type ChangedBy, candidateAnswers, candidates, files } from "@/db/schema";
import { candidateJsonText } from "@/server/read/candidates";
import { changeCandidate, type Transaction } from "./candidate-changes";
import { storeCandidateFile, type UploadInput } from "./candidate-files";
import type { CandidateRow } from "./candidate-row";
import type { DomainContext } from "./context";
import { invalidInput, invalidState } from "./errors";
import { type LoadedInterview, loadInterview } from "./interviews";
import { decidedStatuses } from "./statuses";
import { candidateSource } from "./stored-candidates";

export type StartAttemptInput = {
  interviewId: string;
  name: string;
  email: string;
  phone?: string | null;
  /** A team member previewing the interview: never listed, never evented. */
  previewByUserId?: string;
};

export async function startAttempt(ctx: DomainContext, input: StartAttemptInput): Promise<CandidateRow> {
  const name = input.name.trim();
  const email = input.email.trim();
  if (!name) throw invalidInput("A candidate needs a name.");
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw invalidInput(`Not an email address: ${input.email}`);
  return ctx.db.transaction(async (tx) => {
    const interview = await loadInterview(tx, input.interviewId);
    const preview = input.previewByUserId !== undefined;
    if (!preview && interview.status !== "active") {
      throw invalidState(`The interview is ${interview.status}; only active interviews take candidates.`);
    }
    if (preview && interview.status === "closed") throw invalidState("A closed interview cannot be previewed.");
    const attempt = preview ? 1 : await nextAttemptNumber(tx, interview.id, email);
    const now = ctx.clock.now();
    const [row] = await tx
      .insert(candidates)
      .values({
        id: ctx.newId("candidate"),
        companyId: interview.companyId,
        interviewId: interview.id,
        attempt,
        isPreview: preview,
        previewedByUserId: input.previewByUserId ?? null,
        name,
        email,
        phone: input.phone?.trim() || null,
        startedAt: now,
        ...(interview.aiStep ? {} : { resultState: "not_applicable" as const, resultFinalAt: now }),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    // A new attempt has no answers or documents yet.
    const apiJson = candidateJsonText(candidateSource(row!, { interview_title: interview.title, pass_mark: interview.passMark, answers: {}, documents: [] }));
    await tx.update(candidates).set({ apiJson }).where(eq(candidates.id, row!.id));
    return { ...row!, apiJson };
  });
}

/** A retake is a new attempt; the lock keeps two simultaneous starts from sharing a number. */
async function nextAttemptNumber(tx: Transaction, interviewId: string, email: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${interviewId} || lower(${email})))`);
  const [row] = await tx
    .select({ last: max(candidates.attempt) })
    .from(candidates)
    .where(and(eq(candidates.interviewId, interviewId), sql`lower(${candidates.email}) = lower(${email})`, eq(candidates.isPreview, false)));
  return (row?.last ?? 0) + 1;
}

export function assertTaking(candidate: CandidateRow) {
  if (candidate.submittedAt) throw invalidState("The attempt was already submitted.");
  if (candidate.endedAt) throw invalidState(`The attempt has ended (${candidate.status}).`);
}

/** Saves form answers by question id; yes/no answers are the text Yes or No. */
export async function saveAnswers(ctx: DomainContext, candidateId: string, answers: Record<string, string>) {
  return changeCandidate(ctx, candidateId, async (candidate, tx, now) => {
    assertTaking(candidate);
    const interview = await loadInterview(tx, candidate.interviewId);
    const rows = Object.entries(answers).map(([questionId, raw]) => {
      const question = interview.questions.find((q) => q.id === questionId);
      if (!question) throw invalidInput(`The interview has no question ${questionId}.`);
      const answer = raw.trim();
      if (!answer) throw invalidInput(`The answer to ${questionId} is empty.`);
      if (question.type === "yes_no" && answer !== "Yes" && answer !== "No") {
        throw invalidInput(`The answer to ${questionId} must be Yes or No.`);
      }
      if (question.type === "mcq" && !question.choices.includes(answer)) {
        throw invalidInput(`The answer to ${questionId} must be one of its choices.`);
      }
      return { candidateId, questionId, question: question.text, answer, answeredAt: now };
    });
    if (rows.length > 0) {
      await tx
        .insert(candidateAnswers)
        .values(rows)
        .onConflictDoUpdate({
          target: [candidateAnswers.candidateId, candidateAnswers.questionId],
          set: { answer: sql`excluded.answer`, question: sql`excluded.question`, answeredAt: sql`excluded.answered_at` },
        });
    }
    return { patch: {} };
  });
}

function acceptsFile(acceptedTypes: string[], upload: UploadInput) {
  const extension = path.extname(upload.fileName).toLowerCase();
  return acceptedTypes.some((type) => (type.startsWith(".") ? type.toLowerCase() === extension : type.toLowerCase() === upload.contentType?.toLowerCase()));
}

/** Stores a document for the interview's document step. */
export async function uploadDocument(ctx: DomainContext, candidateId: string, upload: UploadInput) {
  const fileId = ctx.newId("file");
  const candidate = await changeCandidate(ctx, candidateId, async (current, tx, now) => {
    assertTaking(current);
    const interview = await loadInterview(tx, current.interviewId);
    if (!interview.documentStep) throw invalidState("The interview has no document step.");
    if (!acceptsFile(interview.documentStep.acceptedTypes, upload)) {
      throw invalidInput(`The document step accepts ${interview.documentStep.acceptedTypes.join(", ")}.`);
    }
    const file = {
      id: fileId,
      kind: "document",
      label: interview.documentStep.label,
      upload: { ...upload, fileName: path.basename(upload.fileName) },
    } as const;
    await storeCandidateFile(ctx, tx, current, file, now);
    return { patch: {} };
  });
  return { candidate, fileId };
}

async function missingSteps(tx: Transaction, candidate: CandidateRow, interview: LoadedInterview) {
  const missing: string[] = [];
  const answered = new Set(
    (await tx.select({ id: candidateAnswers.questionId }).from(candidateAnswers).where(eq(candidateAnswers.candidateId, candidate.id))).map((row) => row.id),
  );
  const unanswered = interview.questions.filter((q) => q.required && !answered.has(q.id));
  if (unanswered.length > 0) missing.push(`${unanswered.length} required form question(s)`);
  if (interview.aiStep && !candidate.aiFinishedAt) missing.push("the AI interview");
  if (interview.documentStep?.required) {
    const [documents] = await tx
      .select({ total: count() })
      .from(files)
      .where(and(eq(files.candidateId, candidate.id), eq(files.kind, "document"), isNull(files.deletedAt)));
    if (!documents?.total) missing.push("the document");
  }
  return missing;
}

/**
 * The candidate has finished every step. The status becomes the AI's decision
 * when a score and pass mark are already known, needs_review otherwise.
 */
export async function submitAttempt(ctx: DomainContext, candidateId: string) {
  return changeCandidate(ctx, candidateId, async (candidate, tx, now) => {
    assertTaking(candidate);
    const interview = await loadInterview(tx, candidate.interviewId);
    const missing = await missingSteps(tx, candidate, interview);
    if (missing.length > 0) throw invalidState(`Cannot submit yet: missing ${missing.join(", ")}.`);
    return {
      patch: { submittedAt: now, status: aiDecision(candidate.score, interview.passMark) ?? "needs_review" },
      by: { type: "candidate", name: candidate.name },
    };
  });
}

/** passed or did_not_pass by the pass mark; null when there is no score or no pass mark. */
export function aiDecision(score: number | null, passMark: number | null): CandidateStatus | null {
  if (score === null || passMark === null) return null;
  return score >= passMark ? "passed" : "did_not_pass";
}

function endAttempt(ctx: DomainContext, candidateId: string, status: CandidateStatus, by: ChangedBy) {
  return changeCandidate(ctx, candidateId, (candidate, _tx, now) => {
    assertTaking(candidate);
    return { patch: { status, endedAt: now }, by };
  });
}

/** The candidate or the team cancelled the attempt. */
export const cancelAttempt = (ctx: DomainContext, candidateId: string, by: ChangedBy) => endAttempt(ctx, candidateId, "cancelled", by);

/** The candidate left without finishing. */
export const abandonAttempt = (ctx: DomainContext, candidateId: string) => endAttempt(ctx, candidateId, "abandoned", { type: "system", name: "System" });

/** The team moved an unfinished attempt on to a decision without waiting for submission. */
export function moveOnAttempt(ctx: DomainContext, candidateId: string, to: CandidateStatus, by: ChangedBy) {
  if (!decidedStatuses.includes(to)) throw invalidInput(`An attempt cannot be moved on to ${to}.`);
  return endAttempt(ctx, candidateId, to, by);
}
