/**
 * A candidate's path through an interview as time-stamped steps, each one a
 * call of the domain write path. The simulator merges the steps of many
 * candidates and plays them in time order.
 */

import {
  deleteRecording,
  failScoring,
  finishAiInterview,
  loseRecording,
  markRecordingOverdue,
  type ScoringFailure,
  saveScore,
  startAiInterview,
  storeRecording,
} from "@/server/domain/ai-interview";
import { abandonAttempt, cancelAttempt, moveOnAttempt, saveAnswers, startAttempt, submitAttempt, uploadDocument } from "@/server/domain/attempts";
import type { DomainContext } from "@/server/domain/context";
import type { LoadedInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { interviewTemplates, person, scoreFor, teamNames, transcriptFor } from "./catalog";
import { makePdf, makeWav } from "./media";
import type { Random } from "./random";

/** `does` says what the step does, for the live demo to print. */
export type Step = { at: number; does: string; run: (ctx: DomainContext) => Promise<unknown> };

export const scenarios = [
  ["complete", 34],
  ["scored_after_submission", 10],
  ["recording_late", 5],
  ["recording_failed", 4],
  ["recording_none", 3],
  ["scoring_failed", 3],
  ["too_little_speech", 3],
  ["no_answers", 2],
  ["interview_not_finished", 2],
  ["other", 1],
  ["abandoned", 6],
  ["cancelled", 4],
  ["moved_on", 3],
  ["in_progress", 4],
  ["preview", 4],
  ["retake", 5],
  ["recording_deleted", 3],
] as const;

export type Scenario = (typeof scenarios)[number][0];

const minute = 60_000;
const hour = 60 * minute;

type Plan = {
  random: Random;
  interview: LoadedInterview;
  previewUserId: string | null;
  /** Multiplies every delay: 1 for history, much less for the live demo. */
  pace: number;
};

/** Plans one scenario starting at `start` (epoch ms). */
export function planJourney(plan: Plan, scenario: Scenario, start: number): Step[] {
  const { random, interview, pace } = plan;
  const hasAi = interview.aiStep !== null;
  const effective: Scenario = hasAi || ["abandoned", "cancelled", "moved_on", "in_progress", "preview"].includes(scenario) ? scenario : "complete";
  if (effective === "preview" && !plan.previewUserId) return planJourney(plan, "complete", start);
  if (effective === "retake") {
    const first = planAttempt(plan, random.pick(["abandoned", "complete"] as const), start, { lowScore: true });
    const retakeAt = first.end + pace * random.int(6, 72) * hour;
    return [...first.steps, ...planAttempt(plan, "complete", retakeAt, { sameAs: first.who }).steps];
  }
  return planAttempt(plan, effective, start).steps;
}

type Who = ReturnType<typeof person>;

function planAttempt(plan: Plan, scenario: Exclude<Scenario, "retake">, start: number, options: { lowScore?: boolean; sameAs?: Who } = {}) {
  const { random, interview, pace } = plan;
  const who = options.sameAs ?? person(random);
  const template = interviewTemplates.find((t) => t.title === interview.title) ?? interviewTemplates[0]!;
  const state = { candidateId: "" };
  const steps: Step[] = [];
  let clock = start;
  const at = (delay: number, what: string, run: Step["run"]) => {
    clock += Math.round(delay * pace);
    steps.push({ at: clock, does: `${who.name}: ${what}`, run });
  };
  const id = () => state.candidateId;

  at(0, scenario === "preview" ? "team preview started" : "attempt started", async (ctx) => {
    const candidate = await startAttempt(ctx, {
      interviewId: interview.id,
      ...who,
      ...(scenario === "preview" ? { previewByUserId: plan.previewUserId! } : {}),
    });
    state.candidateId = candidate.id;
  });
  if (scenario === "in_progress") return { steps, end: clock, who };

  const answers = Object.fromEntries(
    interview.questions
      .filter((q) => q.required || random.chance(0.5))
      .map((q) => [
        q.id,
        q.type === "yes_no"
          ? random.pick(["Yes", "No"])
          : q.type === "mcq"
            ? random.pick(q.choices)
            : random.pick(template.sampleAnswers[q.position] ?? ["Yes, happy to."]),
      ]),
  );
  at(random.int(2, 9) * minute, "answers saved", (ctx) => saveAnswers(ctx, id(), answers));

  const end = (what: string, op: (ctx: DomainContext) => Promise<unknown>) => {
    at(random.int(5, 90) * minute, what, op);
    return { steps, end: clock, who };
  };
  const teamMember = { type: "team", name: random.pick(teamNames) } as const;
  if (scenario === "abandoned") return end("attempt abandoned", (ctx) => abandonAttempt(ctx, id()));
  if (scenario === "cancelled")
    return end("attempt cancelled", (ctx) => cancelAttempt(ctx, id(), random.chance(0.5) ? teamMember : { type: "candidate", name: who.name }));
  if (scenario === "moved_on")
    return end("moved on by the team", (ctx) => moveOnAttempt(ctx, id(), random.pick(["shortlisted", "rejected", "on_hold"] as const), teamMember));

  const ai = interview.aiStep;
  const failure: ScoringFailure | null =
    (["scoring_failed", "too_little_speech", "no_answers", "interview_not_finished", "other"] as const).find((f) => f === scenario) ?? null;
  if (ai) {
    const questions = template.aiQuestions.length > 0 ? template.aiQuestions.slice(0, ai.questionCount) : ["Tell me about yourself."];
    const answered = scenario === "no_answers" ? 0 : scenario === "interview_not_finished" ? 1 : scenario === "too_little_speech" ? 1 : questions.length;
    const transcript = transcriptFor(random, questions, answered);
    const duration = transcript.reduce((sum, entry) => sum + entry.speakingSeconds, 0) + 30 * questions.length;
    at(random.int(1, 4) * minute, "AI interview started", (ctx) => startAiInterview(ctx, id()));
    at(duration * 1000, "AI interview finished", (ctx) =>
      finishAiInterview(ctx, id(), {
        transcript,
        durationSeconds: duration,
        questionsAsked: questions.length,
        endedForConduct: scenario === "interview_not_finished" && random.chance(0.5),
      }),
    );
    const aiFinished = clock;
    const score = () => {
      const result = scoreFor(random, ai.skills, transcript.map((entry) => entry.answer).filter(Boolean));
      return options.lowScore ? { ...result, score: Math.min(result.score, 40), recommendation: "not_recommended" as const } : result;
    };
    const recording = (ctx: DomainContext) =>
      storeRecording(ctx, id(), {
        fileName: ai.mode === "video" ? "interview-recording.wav" : "interview-audio.wav",
        contentType: "audio/wav",
        bytes: makeWav(Math.min(duration, 4), who.name.length),
        durationSeconds: duration,
      });
    const scoreLater = scenario === "scored_after_submission";
    const outcome = failure ? (ctx: DomainContext) => failScoring(ctx, id(), failure) : (ctx: DomainContext) => saveScore(ctx, id(), score());
    const scored = failure ? `scoring failed (${failure})` : "scored";
    if (!scoreLater) at(random.int(1, 10) * minute, scored, outcome);
    if (scenario === "recording_failed" || scenario === "recording_none") {
      at(random.int(5, 60) * minute, `recording ${scenario === "recording_failed" ? "failed" : "empty"}`, (ctx) =>
        loseRecording(ctx, id(), scenario === "recording_failed" ? "failed" : "none"),
      );
    } else if (scenario !== "recording_late" && !scoreLater) {
      at(random.int(2, 40) * minute, "recording stored", recording);
    }
    if (interview.documentStep) {
      at(random.int(1, 5) * minute, "document uploaded", (ctx) =>
        uploadDocument(ctx, id(), {
          fileName: `${who.name.split(" ")[1]}-cv.pdf`,
          contentType: "application/pdf",
          bytes: makePdf([`${who.name}`, who.email, "Experience: 5 years", "Languages: English"]),
        }),
      );
    }
    at(random.int(1, 3) * minute, "submitted", (ctx) => submitAttempt(ctx, id()));
    if (scoreLater) {
      at(random.int(5, 30) * minute, scored, outcome);
      at(random.int(5, 60) * minute, "recording stored", recording);
    }
    if (scenario === "recording_late") {
      steps.push({ at: aiFinished + pace * 6 * hour, does: `${who.name}: recording overdue`, run: (ctx) => markRecordingOverdue(ctx, id()) });
      steps.push({ at: aiFinished + pace * random.int(20, 44) * hour, does: `${who.name}: late recording stored`, run: recording });
      clock = aiFinished + pace * 6 * hour;
    }
    if (scenario === "recording_deleted") at(random.int(3, 6) * 24 * hour, "recording deleted after retention", (ctx) => deleteRecording(ctx, id()));
  } else {
    if (interview.documentStep) {
      at(random.int(1, 5) * minute, "document uploaded", (ctx) =>
        uploadDocument(ctx, id(), { fileName: "cv.pdf", contentType: "application/pdf", bytes: makePdf([who.name]) }),
      );
    }
    at(random.int(1, 3) * minute, "submitted", (ctx) => submitAttempt(ctx, id()));
  }

  if (scenario !== "preview" && random.chance(0.45)) {
    const to = random.weighted([
      ["shortlisted", 4],
      ["rejected", 3],
      ["on_hold", 2],
      ["needs_review", 1],
    ] as const);
    at(random.int(2, 48) * hour, `status set to ${to}`, (ctx) =>
      changeStatus(ctx, id(), { to, by: teamMember, rejectionReason: to === "rejected" ? "Another candidate was a closer match." : null }),
    );
  }
  steps.sort((a, b) => a.at - b.at);
  return { steps, end: Math.max(clock, ...steps.map((s) => s.at)), who };
}
