/**
 * Interview life cycle (the spec leaves the transitions open;
 * docs/decisions/0090-spec-interview-status.md): draft → active ⇄ paused →
 * closed; any interview can be deleted,
 * which hides it from the API but keeps its candidates readable.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { accessModes, aiModes, aiStepTypes, type InterviewStatus, interviewQuestions, interviews, questionTypes } from "@/db/schema";
import type { DomainContext } from "./context";
import { invalidState, notFound, parseInput } from "./errors";

export const interviewInput = z
  .object({
    title: z.string().trim().min(1).max(200),
    language: z.string().trim().min(2).max(35).default("en"),
    accessMode: z.enum(accessModes).default("public"),
    passMark: z.number().int().min(0).max(100).nullable().default(null),
    questions: z
      .array(
        z.object({
          text: z.string().trim().min(1).max(2000),
          type: z.enum(questionTypes),
          required: z.boolean().default(true),
          choices: z.array(z.string().trim().min(1).max(200)).default([]),
        }),
      )
      .max(50)
      .default([]),
    aiStep: z
      .object({
        type: z.enum(aiStepTypes),
        mode: z.enum(aiModes),
        language: z.string().trim().min(2).max(35),
        timeLimitMinutes: z.number().int().min(1).max(180),
        questionCount: z.number().int().min(1).max(50),
        skills: z.array(z.string().trim().min(1).max(100)).max(20),
      })
      .nullable()
      .default(null),
    documentStep: z
      .object({
        label: z.string().trim().min(1).max(200),
        description: z.string().trim().max(2000),
        acceptedTypes: z.array(z.string().trim().min(1)).min(1),
        required: z.boolean(),
      })
      .nullable()
      .default(null),
  })
  .superRefine((input, issues) => {
    input.questions.forEach((question, index) => {
      const hasChoices = question.choices.length > 0;
      if (question.type === "mcq" && question.choices.length < 2) {
        issues.addIssue({ code: "custom", path: ["questions", index, "choices"], message: "mcq needs at least two choices" });
      }
      if (question.type !== "mcq" && hasChoices) {
        issues.addIssue({ code: "custom", path: ["questions", index, "choices"], message: "only mcq questions have choices" });
      }
    });
  });

export type InterviewInput = z.input<typeof interviewInput>;

export async function createInterview(ctx: DomainContext, companyId: string, input: InterviewInput) {
  const { questions, ...fields } = parseInput(interviewInput, input);
  const id = ctx.newId("interview");
  return ctx.db.transaction(async (tx) => {
    await tx.insert(interviews).values({ id, companyId, ...fields, createdAt: ctx.clock.now() });
    if (questions.length > 0) {
      await tx
        .insert(interviewQuestions)
        .values(questions.map((question, position) => ({ id: ctx.newId("question"), interviewId: id, position, ...question })));
    }
    return { id };
  });
}

/** An interview with its form questions in order; deleted ones count as missing. */
export async function loadInterview(db: Executor, interviewId: string) {
  const [interview] = await db
    .select()
    .from(interviews)
    .where(and(eq(interviews.id, interviewId), isNull(interviews.deletedAt)));
  if (!interview) throw notFound("interview", interviewId);
  const questions = await db.select().from(interviewQuestions).where(eq(interviewQuestions.interviewId, interviewId)).orderBy(asc(interviewQuestions.position));
  return { ...interview, questions };
}

export type LoadedInterview = Awaited<ReturnType<typeof loadInterview>>;

const transitions: Record<"publish" | "pause" | "close", { from: InterviewStatus[]; to: InterviewStatus }> = {
  publish: { from: ["draft", "paused"], to: "active" },
  pause: { from: ["active"], to: "paused" },
  close: { from: ["active", "paused"], to: "closed" },
};

async function moveInterview(ctx: DomainContext, interviewId: string, action: keyof typeof transitions) {
  const { from, to } = transitions[action];
  return ctx.db.transaction(async (tx) => {
    const [interview] = await tx
      .select()
      .from(interviews)
      .where(and(eq(interviews.id, interviewId), isNull(interviews.deletedAt)))
      .for("update");
    if (!interview) throw notFound("interview", interviewId);
    if (!from.includes(interview.status)) {
      throw invalidState(`Cannot ${action} an interview that is ${interview.status}.`);
    }
    const now = ctx.clock.now();
    await tx
      .update(interviews)
      .set({
        status: to,
        publishedAt: action === "publish" ? (interview.publishedAt ?? now) : interview.publishedAt,
        closedAt: action === "close" ? now : interview.closedAt,
      })
      .where(eq(interviews.id, interviewId));
  });
}

export const publishInterview = (ctx: DomainContext, interviewId: string) => moveInterview(ctx, interviewId, "publish");
export const pauseInterview = (ctx: DomainContext, interviewId: string) => moveInterview(ctx, interviewId, "pause");
export const closeInterview = (ctx: DomainContext, interviewId: string) => moveInterview(ctx, interviewId, "close");

export async function deleteInterview(ctx: DomainContext, interviewId: string) {
  const deleted = await ctx.db
    .update(interviews)
    .set({ deletedAt: ctx.clock.now() })
    .where(and(eq(interviews.id, interviewId), isNull(interviews.deletedAt)))
    .returning({ id: interviews.id });
  if (deleted.length === 0) throw notFound("interview", interviewId);
}
