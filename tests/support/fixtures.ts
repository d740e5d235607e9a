/** Small builders for domain tests: every write goes through the domain write path. */
import { asc, eq } from "drizzle-orm";
import { events } from "@/db/schema";
import { createCompany } from "@/server/domain/accounts";
import { finishAiInterview, saveScore, startAiInterview, storeRecording } from "@/server/domain/ai-interview";
import { saveAnswers, startAttempt, submitAttempt, uploadDocument } from "@/server/domain/attempts";
import type { DomainContext } from "@/server/domain/context";
import { createInterview, type InterviewInput, loadInterview, publishInterview } from "@/server/domain/interviews";
import { type FanOutPayload, taskNames } from "@/server/jobs/queue";
import { queuedJobs } from "./jobs";

export async function makeCompany(ctx: DomainContext, name = "Acme") {
  return (await createCompany(ctx, { name })).id;
}

export const fullInterview: InterviewInput = {
  title: "Support Specialist",
  passMark: 60,
  questions: [
    { text: "Why support?", type: "open_text", required: true },
    { text: "Phone calls okay?", type: "yes_no", required: true },
    { text: "Shift?", type: "mcq", required: false, choices: ["Early", "Late"] },
  ],
  aiStep: { type: "scripted", mode: "video", language: "en", timeLimitMinutes: 20, questionCount: 2, skills: ["Empathy"] },
  documentStep: { label: "CV", description: "Your CV", acceptedTypes: ["application/pdf"], required: true },
};

export async function makeInterview(ctx: DomainContext, companyId: string, input: InterviewInput = fullInterview) {
  const { id } = await createInterview(ctx, companyId, input);
  await publishInterview(ctx, id);
  return loadInterview(ctx.db, id);
}

/** The setup most webhook tests start from: a company and a published interview with every step. */
export async function companyWithInterview(ctx: DomainContext, name = "Acme") {
  const companyId = await makeCompany(ctx, name);
  return { companyId, interview: await makeInterview(ctx, companyId) };
}

export async function startCandidate(ctx: DomainContext, interviewId: string, extra: { previewByUserId?: string; email?: string } = {}) {
  return startAttempt(ctx, { interviewId, name: "Ada Lovelace", email: extra.email ?? "ada@example.com", ...extra });
}

export const score = (value = 75) => ({
  score: value,
  recommendation: "recommended" as const,
  summary: "Solid.",
  strengths: ["Clear"],
  skills: { Empathy: value },
});

type Interview = Awaited<ReturnType<typeof makeInterview>>;

/** Answers the form, and does the AI interview and the document where the interview has them. */
export async function completeSteps(ctx: DomainContext, interview: Interview, candidateId: string) {
  const answers = Object.fromEntries(
    interview.questions.filter((q) => q.required).map((q) => [q.id, q.type === "yes_no" ? "Yes" : q.type === "mcq" ? q.choices[0]! : "Because."]),
  );
  await saveAnswers(ctx, candidateId, answers);
  if (interview.aiStep) {
    await startAiInterview(ctx, candidateId);
    await finishAiInterview(ctx, candidateId, {
      transcript: [{ question: "Tell me about you.", answer: "I like people.", speakingSeconds: 40 }],
      durationSeconds: 300,
      questionsAsked: 1,
    });
  }
  if (interview.documentStep) {
    await uploadDocument(ctx, candidateId, { fileName: "cv.pdf", contentType: "application/pdf", bytes: Buffer.from("%PDF-1.4") });
  }
}

export const recording = { fileName: "rec.wav", contentType: "audio/wav", bytes: Buffer.from("RIFF"), durationSeconds: 300 };

export async function scoreAndRecord(ctx: DomainContext, candidateId: string, value = 75) {
  await saveScore(ctx, candidateId, score(value));
  await storeRecording(ctx, candidateId, recording);
}

/** The candidate's events in history order. */
/** A candidate taken through a whole attempt: started, every step answered, scored with a recording, then submitted. */
export async function submitCandidate(ctx: DomainContext, interview: Interview, extra: { email?: string } = {}) {
  const candidate = await startCandidate(ctx, interview.id, extra);
  await completeSteps(ctx, interview, candidate.id);
  await scoreAndRecord(ctx, candidate.id);
  await submitAttempt(ctx, candidate.id);
  return candidate;
}

export async function eventsOf(ctx: DomainContext, candidateId: string) {
  return ctx.db
    .select({ id: events.id, type: events.type, change: events.change, createdAt: events.createdAt })
    .from(events)
    .where(eq(events.candidateId, candidateId))
    .orderBy(asc(events.txId), asc(events.seq));
}

export const typesOf = async (ctx: DomainContext, candidateId: string) => (await eventsOf(ctx, candidateId)).map((event) => event.type);

/** Companies named by queued fan-out jobs, in job order. */
export async function enqueuedFanOuts(ctx: DomainContext): Promise<string[]> {
  return (await queuedJobs<FanOutPayload>(ctx.db, taskNames.fanOut)).map((job) => job.payload.companyId);
}
