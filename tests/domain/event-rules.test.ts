import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { candidates, events } from "@/db/schema";
import { createUser } from "@/server/domain/accounts";
import { failScoring, finishAiInterview, loseRecording, markRecordingOverdue, saveScore, startAiInterview, storeRecording } from "@/server/domain/ai-interview";
import { abandonAttempt, cancelAttempt, moveOnAttempt, submitAttempt } from "@/server/domain/attempts";
import { DomainError } from "@/server/domain/errors";
import { changeStatus } from "@/server/domain/statuses";
import { useTestDatabase } from "../support/database";
import {
  completeSteps,
  enqueuedFanOuts,
  eventsOf,
  makeCompany,
  makeInterview,
  recording,
  score,
  scoreAndRecord,
  startCandidate,
  typesOf,
} from "../support/fixtures";
import { queuedJobs } from "../support/jobs";

const test = useTestDatabase();
let companyId: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;
const team = { type: "team", name: "Priya Shah" } as const;

beforeEach(async () => {
  companyId = await makeCompany(test.ctx);
  interview = await makeInterview(test.ctx, companyId);
});

const row = async (id: string) => (await test.ctx.db.select().from(candidates).where(eq(candidates.id, id)))[0]!;

describe("before submission", () => {
  it("records nothing, whatever happens to the attempt", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id);
    expect((await row(candidate.id)).resultState).toBe("complete");
    expect(await typesOf(test.ctx, candidate.id)).toEqual([]);
  });

  it("records nothing for attempts that end unsubmitted", async () => {
    const cancelled = await startCandidate(test.ctx, interview.id, { email: "a@example.com" });
    const abandoned = await startCandidate(test.ctx, interview.id, { email: "b@example.com" });
    const movedOn = await startCandidate(test.ctx, interview.id, { email: "c@example.com" });
    await cancelAttempt(test.ctx, cancelled.id, team);
    await abandonAttempt(test.ctx, abandoned.id);
    await moveOnAttempt(test.ctx, movedOn.id, "shortlisted", team);
    for (const { id } of [cancelled, abandoned, movedOn]) {
      expect(await typesOf(test.ctx, id)).toEqual([]);
      expect(await row(id)).toMatchObject({ resultState: "incomplete", incompleteReason: "not_submitted" });
    }
    expect((await row(movedOn.id)).status).toBe("shortlisted");
  });

  it("records nothing for a team member's preview, even submitted and scored", async () => {
    const { id: userId } = await createUser(test.ctx, {
      companyId,
      email: `p${Date.now()}@example.com`,
      name: "P",
      role: "member",
      password: "long enough password",
    });
    const preview = await startCandidate(test.ctx, interview.id, { previewByUserId: userId });
    await completeSteps(test.ctx, interview, preview.id);
    await submitAttempt(test.ctx, preview.id);
    await scoreAndRecord(test.ctx, preview.id);
    await changeStatus(test.ctx, preview.id, { to: "shortlisted", by: team });
    expect(await typesOf(test.ctx, preview.id)).toEqual([]);
  });
});

describe("candidate.submitted", () => {
  it("happens once, at submission", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    await expect(submitAttempt(test.ctx, candidate.id)).rejects.toThrow(/already submitted/);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted"]);
  });

  it("is refused until every step is done", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await expect(submitAttempt(test.ctx, candidate.id)).rejects.toThrow(/required form question.*AI interview.*document/);
    expect(await typesOf(test.ctx, candidate.id)).toEqual([]);
  });

  it("is unique per attempt in the database itself", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    const insert = test.ctx.db.insert(events).values({
      id: "evt_duplicate",
      companyId,
      candidateId: candidate.id,
      interviewId: interview.id,
      type: "candidate.submitted",
      createdAt: new Date(),
    });
    await expect(insert).rejects.toThrow();
  });
});

describe("candidate.scored and candidate.ready", () => {
  it("announces a score and final result reached before submission at submission, in order", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id);
    test.clock.advance(60_000);
    await submitAttempt(test.ctx, candidate.id);
    const history = await eventsOf(test.ctx, candidate.id);
    expect(history.map((e) => e.type)).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
    expect(new Set(history.map((e) => e.createdAt.toISOString()))).toEqual(new Set([test.clock.now().toISOString()]));
  });

  it("sends scored after submitted and ready only once the recording is in", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    await saveScore(test.ctx, candidate.id, score(90));
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted", "candidate.scored", "candidate.status_changed"]);
    await storeRecording(test.ctx, candidate.id, recording);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted", "candidate.scored", "candidate.status_changed", "candidate.ready"]);
    expect((await row(candidate.id)).resultState).toBe("complete");
  });

  it("never sends scored when scoring failed, and ready says why", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    await failScoring(test.ctx, candidate.id, "too_little_speech");
    await expect(saveScore(test.ctx, candidate.id, score())).rejects.toThrow(/already failed/);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted", "candidate.ready"]);
    expect(await row(candidate.id)).toMatchObject({ resultState: "incomplete", incompleteReason: "too_little_speech" });
  });

  it("waits for the score when the recording failed first, so ready never precedes scored", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await loseRecording(test.ctx, candidate.id, "none");
    await submitAttempt(test.ctx, candidate.id);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted"]);
    await saveScore(test.ctx, candidate.id, score(40));
    const types = await typesOf(test.ctx, candidate.id);
    expect(types.slice(0, 3)).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
    expect(await row(candidate.id)).toMatchObject({ resultState: "incomplete", incompleteReason: "recording_failed", recordingStatus: "none" });
  });

  it("makes the result final without a late recording, and the late arrival adds no event", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await saveScore(test.ctx, candidate.id, score());
    await submitAttempt(test.ctx, candidate.id);
    await markRecordingOverdue(test.ctx, candidate.id);
    await storeRecording(test.ctx, candidate.id, recording);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
    expect(await row(candidate.id)).toMatchObject({ resultState: "incomplete", incompleteReason: "not_delivered_in_time", recordingStatus: "ready" });
  });

  it("is not_applicable, and ready at submission, for an interview without an AI step", async () => {
    const formOnly = await makeInterview(test.ctx, companyId, { title: "Form only", questions: [{ text: "Licence?", type: "yes_no" }] });
    const candidate = await startCandidate(test.ctx, formOnly.id);
    await completeSteps(test.ctx, formOnly, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted", "candidate.ready"]);
    expect((await row(candidate.id)).resultState).toBe("not_applicable");
  });
});

describe("candidate.status_changed", () => {
  it("is recorded on every change after submission with the change frozen", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id, 30);
    await submitAttempt(test.ctx, candidate.id);
    expect((await row(candidate.id)).status).toBe("did_not_pass");
    await changeStatus(test.ctx, candidate.id, { to: "on_hold", by: team });
    await changeStatus(test.ctx, candidate.id, { to: "on_hold", by: team });
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Tom Becker" }, rejectionReason: "Closer match found" });
    const changes = (await eventsOf(test.ctx, candidate.id)).filter((e) => e.type === "candidate.status_changed").map((e) => e.change);
    expect(changes).toEqual([
      { from: "did_not_pass", to: "on_hold", by: { type: "team", name: "Priya Shah" } },
      { from: "on_hold", to: "rejected", by: { type: "team", name: "Tom Becker" } },
    ]);
    expect((await row(candidate.id)).rejectionReason).toBe("Closer match found");
  });

  it("records the AI's decision when the score arrives after submission", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await storeRecording(test.ctx, candidate.id, recording);
    await submitAttempt(test.ctx, candidate.id);
    expect((await row(candidate.id)).status).toBe("needs_review");
    await saveScore(test.ctx, candidate.id, score(80));
    const history = await eventsOf(test.ctx, candidate.id);
    expect(history.map((e) => e.type)).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready", "candidate.status_changed"]);
    expect(history[3]!.change).toEqual({ from: "needs_review", to: "passed", by: { type: "ai", name: "AI interviewer" } });
  });

  it("is refused before submission", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await expect(changeStatus(test.ctx, candidate.id, { to: "shortlisted", by: team })).rejects.toThrow(/submitted/);
  });
});

describe("delivery jobs", () => {
  it("enqueue a fan-out of the company in every transaction that appends events", async () => {
    const before = await enqueuedFanOuts(test.ctx);
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    await changeStatus(test.ctx, candidate.id, { to: "shortlisted", by: team });
    // Two operations appended events (the submission, the status change); the
    // others changed nothing a webhook hears about.
    expect((await enqueuedFanOuts(test.ctx)).slice(before.length)).toEqual([interview.companyId, interview.companyId]);
  });

  it("leave no event and no job when the operation fails", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    const jobsBefore = (await queuedJobs(test.ctx.db)).length;
    // The storage write fails inside the submission's transaction.
    const failing = { ...test.ctx, storage: { ...test.ctx.storage, put: async () => Promise.reject(new Error("disk full")) } };
    await submitAttempt(test.ctx, candidate.id);
    await expect(storeRecording(failing, candidate.id, recording)).rejects.toThrow("disk full");
    const jobsAfter = (await queuedJobs(test.ctx.db)).length;
    expect(jobsAfter - jobsBefore).toBe(1);
    expect(await typesOf(test.ctx, candidate.id)).toEqual(["candidate.submitted"]);
    expect((await row(candidate.id)).recordingStatus).toBe("processing");
  });
});

describe("attempts", () => {
  it("numbers a retake as a new candidate with attempt 2, keeping the first", async () => {
    const first = await startCandidate(test.ctx, interview.id, { email: "retake@example.com" });
    await abandonAttempt(test.ctx, first.id);
    const second = await startCandidate(test.ctx, interview.id, { email: "Retake@Example.com" });
    expect([first.attempt, second.attempt]).toEqual([1, 2]);
    expect((await row(first.id)).status).toBe("abandoned");
  });

  it("refuses answers that do not fit the question", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    const [openText, yesNo, mcq] = interview.questions;
    const { saveAnswers } = await import("@/server/domain/attempts");
    await expect(saveAnswers(test.ctx, candidate.id, { [yesNo!.id]: "Maybe" })).rejects.toThrow(/Yes or No/);
    await expect(saveAnswers(test.ctx, candidate.id, { [mcq!.id]: "Night" })).rejects.toThrow(/choices/);
    await expect(saveAnswers(test.ctx, candidate.id, { q_unknown: "x" })).rejects.toThrow(/no question/);
    await saveAnswers(test.ctx, candidate.id, { [openText!.id]: "Because." });
  });

  it("requires the AI interview to finish before it can be scored", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await startAiInterview(test.ctx, candidate.id);
    await expect(saveScore(test.ctx, candidate.id, score())).rejects.toThrow(/not finished/);
    await finishAiInterview(test.ctx, candidate.id, { transcript: [], durationSeconds: 10, questionsAsked: 2 });
    expect((await row(candidate.id)).aiQuestionsAnswered).toBe(0);
  });
});

describe("domain input", () => {
  it("is refused with the domain's own error, every problem in words, never a raw schema error", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    const refusal = finishAiInterview(test.ctx, candidate.id, {
      transcript: [{ question: "", answer: "x", speakingSeconds: -1 }],
      durationSeconds: 60,
      questionsAsked: 1,
    });
    await expect(refusal).rejects.toBeInstanceOf(DomainError);
    await expect(refusal).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/^0\.question: .+\. 0\.speakingSeconds: .+\.$/) });
  });
});
