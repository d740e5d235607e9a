import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, idColumn, time } from "./columns";
import { companies } from "./companies";

export const interviewStatuses = ["draft", "active", "paused", "closed"] as const;
export type InterviewStatus = (typeof interviewStatuses)[number];

export const accessModes = ["public", "invite_only"] as const;
export const aiStepTypes = ["scripted", "ai_led"] as const;
export const aiModes = ["video", "audio_only"] as const;
export type AiMode = (typeof aiModes)[number];

export type AiStep = {
  type: (typeof aiStepTypes)[number];
  mode: AiMode;
  language: string;
  timeLimitMinutes: number;
  questionCount: number;
  skills: string[];
};

export type DocumentStep = {
  label: string;
  description: string;
  acceptedTypes: string[];
  required: boolean;
};

export const interviews = pgTable(
  "interviews",
  {
    id: idColumn(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id),
    title: text("title").notNull(),
    status: text("status", { enum: interviewStatuses }).notNull().default("draft"),
    language: text("language").notNull(),
    accessMode: text("access_mode", { enum: accessModes }).notNull(),
    passMark: integer("pass_mark"),
    /** The AI step; null when the interview has none. The form step is its questions. */
    aiStep: jsonb("ai_step").$type<AiStep>(),
    documentStep: jsonb("document_step").$type<DocumentStep>(),
    createdAt: createdAt(),
    publishedAt: time("published_at"),
    closedAt: time("closed_at"),
    deletedAt: time("deleted_at"),
  },
  (table) => [
    index("interviews_list_idx").on(table.companyId, table.createdAt, table.id).where(sql`${table.deletedAt} is null`),
    index("interviews_list_by_status_idx").on(table.companyId, table.status, table.createdAt, table.id).where(sql`${table.deletedAt} is null`),
  ],
);
