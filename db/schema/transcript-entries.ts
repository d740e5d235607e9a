import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { candidates } from "./candidates";

export const transcriptEntries = pgTable(
  "transcript_entries",
  {
    candidateId: text("candidate_id")
      .notNull()
      .references(() => candidates.id),
    index: integer("index").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    speakingSeconds: integer("speaking_seconds").notNull(),
  },
  (table) => [primaryKey({ columns: [table.candidateId, table.index] })],
);
