import { boolean, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { idColumn } from "./columns";
import { interviews } from "./interviews";

export const questionTypes = ["open_text", "mcq", "yes_no"] as const;
export type QuestionType = (typeof questionTypes)[number];

/** Form questions. The id is the key of candidates' answers and never changes. */
export const interviewQuestions = pgTable(
  "interview_questions",
  {
    id: idColumn(),
    interviewId: text("interview_id")
      .notNull()
      .references(() => interviews.id),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    type: text("type", { enum: questionTypes }).notNull(),
    required: boolean("required").notNull(),
    choices: jsonb("choices").$type<string[]>().notNull().default([]),
  },
  (table) => [uniqueIndex("interview_questions_position_key").on(table.interviewId, table.position)],
);
