/**
 * The body of a sample message, of any event type: a made-up candidate who
 * answered the chosen interview's real questions, rendered by the same code
 * as real candidates and events, so its fields come in the order of a real
 * delivery's. It is kept as the JSON text to send (`sample_body`, a JSON
 * string in jsonb, which would reorder an object's keys).
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { type EventType, interviews, type StatusChange } from "@/db/schema";
import { notFound } from "@/server/domain/errors";
import { loadInterview } from "@/server/domain/interviews";
import { candidateJsonText } from "@/server/read/candidates";
import { eventJsonText } from "@/server/read/events";
import { sampleCandidateId, sampleCandidateName } from "@/server/sample-candidate";

const sampleAnswer = { open_text: "This is a sample answer.", mcq: null, yes_no: "Yes" } as const;

/** A sample status change: the team shortlists the candidate after the result (the AI's decision, or the review it awaits). */
const sampleChange = (from: string): StatusChange => ({ from, to: "shortlisted", by: { type: "team", name: "Sample Reviewer" } });

export async function sampleEventBody(db: Executor, companyId: string, interviewId: string, type: EventType, eventId: string, now: Date): Promise<string> {
  const [owned] = await db
    .select({ id: interviews.id })
    .from(interviews)
    .where(and(eq(interviews.id, interviewId), eq(interviews.companyId, companyId)));
  if (!owned) throw notFound("interview", interviewId);
  const interview = await loadInterview(db, interviewId);
  const ai = interview.aiStep;
  const startedAt = new Date(now.getTime() - 45 * 60_000);
  const decided = ai ? "passed" : "needs_review";
  const change = type === "candidate.status_changed" ? sampleChange(decided) : null;
  const candidate = candidateJsonText({
    id: sampleCandidateId,
    attempt: 1,
    name: sampleCandidateName,
    email: "sam.sample@example.com",
    phone: null,
    interview_id: interview.id,
    interview_title: interview.title,
    pass_mark: interview.passMark,
    status: change ? "shortlisted" : decided,
    rejection_reason: null,
    started_at: startedAt.toISOString(),
    submitted_at: now.toISOString(),
    result_state: ai ? "complete" : "not_applicable",
    incomplete_reason: null,
    score: ai ? 82 : null,
    recommendation: ai ? "recommended" : null,
    summary: ai ? "A sample summary of the interview." : null,
    strengths: ai ? ["Clear examples"] : [],
    areas_to_improve: ai ? ["More detail on results"] : [],
    skills: Object.fromEntries((ai?.skills ?? []).map((skill) => [skill, 80])),
    highlights: ai ? [{ quote: "A sample quote.", type: "strength", why: "Shows how a highlight looks." }] : [],
    ended_for_conduct: false,
    ai_started_at: ai ? startedAt.toISOString() : null,
    ai_mode: ai?.mode ?? null,
    ai_language: ai?.language ?? null,
    ai_duration_seconds: ai ? 900 : null,
    ai_questions_asked: ai?.questionCount ?? 0,
    ai_questions_answered: ai?.questionCount ?? 0,
    recording_status: ai ? "ready" : null,
    answers: Object.fromEntries(
      interview.questions.map((question) => [question.id, { question: question.text, answer: sampleAnswer[question.type] ?? question.choices[0] ?? "" }]),
    ),
    documents: [],
  });
  return eventJsonText({ id: eventId, type, created_at: now.toISOString(), change }, candidate, { test: true });
}
