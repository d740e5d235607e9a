import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { candidates } from "./candidates";
import { time } from "./columns";

/** Form answers keyed by the question's stable id; the text is what the candidate saw. */
export const candidateAnswers = pgTable(
  "candidate_answers",
  {
    candidateId: text("candidate_id")
      .notNull()
      .references(() => candidates.id),
    questionId: text("question_id").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    answeredAt: time("answered_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.candidateId, table.questionId] })],
);
