import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { type CandidateStatus, candidateStatuses, type Recommendation, recommendations } from "./candidate-values";
import { createdAt, idColumn, time } from "./columns";
import { companies } from "./companies";
import { interviews } from "./interviews";
import { users } from "./users";

export { type CandidateStatus, candidateStatuses, type Recommendation, recommendations };

export const resultStates = ["waiting", "complete", "incomplete", "not_applicable"] as const;
export type ResultState = (typeof resultStates)[number];

export const incompleteReasons = [
  "not_submitted",
  "interview_not_finished",
  "too_little_speech",
  "no_answers",
  "scoring_failed",
  "recording_failed",
  "not_delivered_in_time",
  "other",
] as const;
export type IncompleteReason = (typeof incompleteReasons)[number];

export const recordingStatuses = ["processing", "ready", "failed", "none", "deleted"] as const;
export type RecordingStatus = (typeof recordingStatuses)[number];

/** Where the AI score stands; `failed` means it will never come. */
export const scoreStatuses = ["pending", "saved", "failed"] as const;
export type ScoreStatus = (typeof scoreStatuses)[number];

export const highlightTypes = ["strength", "concern", "insight", "conduct"] as const;
export type Highlight = { quote: string; type: (typeof highlightTypes)[number]; why: string };

/** One attempt at an interview. A retake is a new row with the next attempt number. */
export const candidates = pgTable(
  "candidates",
  {
    id: idColumn(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id),
    interviewId: text("interview_id")
      .notNull()
      .references(() => interviews.id),
    attempt: integer("attempt").notNull(),
    /** A team member trying the interview out: never listed, never evented. */
    isPreview: boolean("is_preview").notNull().default(false),
    previewedByUserId: text("previewed_by_user_id").references(() => users.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    status: text("status", { enum: candidateStatuses }).notNull().default("in_progress"),
    rejectionReason: text("rejection_reason"),
    startedAt: time("started_at").notNull(),
    submittedAt: time("submitted_at"),
    /** When an unsubmitted attempt was ended: cancelled, abandoned or moved on. */
    endedAt: time("ended_at"),

    aiStartedAt: time("ai_started_at"),
    aiFinishedAt: time("ai_finished_at"),
    aiMode: text("ai_mode", { enum: ["video", "audio_only"] }),
    aiLanguage: text("ai_language"),
    aiDurationSeconds: integer("ai_duration_seconds"),
    aiQuestionsAsked: integer("ai_questions_asked").notNull().default(0),
    aiQuestionsAnswered: integer("ai_questions_answered").notNull().default(0),
    recordingStatus: text("recording_status", { enum: recordingStatuses }),
    recordingFileId: text("recording_file_id"),
    recordingDurationSeconds: integer("recording_duration_seconds"),

    scoreStatus: text("score_status", { enum: scoreStatuses }).notNull().default("pending"),
    scoredAt: time("scored_at"),
    resultState: text("result_state", { enum: resultStates }).notNull().default("waiting"),
    incompleteReason: text("incomplete_reason", { enum: incompleteReasons }),
    resultFinalAt: time("result_final_at"),
    score: integer("score"),
    recommendation: text("recommendation", { enum: recommendations }),
    summary: text("summary"),
    strengths: jsonb("strengths").$type<string[]>().notNull().default([]),
    areasToImprove: jsonb("areas_to_improve").$type<string[]>().notNull().default([]),
    skills: jsonb("skills").$type<Record<string, number>>().notNull().default({}),
    highlights: jsonb("highlights").$type<Highlight[]>().notNull().default([]),
    endedForConduct: boolean("ended_for_conduct").notNull().default(false),

    /**
     * The API's Candidate object as JSON text, rendered in the transaction of
     * every change that alters it (server/domain/stored-candidate.ts); reads
     * and webhook bodies only put stored texts together. Its addresses start
     * with a mark that stands for APP_URL (server/read/candidate-json.ts).
     * Null only until the start-up pass renders a row written before this
     * column existed.
     */
    apiJson: text("api_json"),

    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [
    // One index per list ordering of GET /candidates (company first, then the
    // ordering keys, id last as the unique tie-breaker). Previews are left out.
    // Ascending on purpose: "order by … desc" (nulls first) is exactly a
    // backward scan of them, which drizzle's "desc nulls last" would not be.
    index("candidates_submitted_idx").on(table.companyId, table.submittedAt, table.id).where(sql`not ${table.isPreview} and ${table.submittedAt} is not null`),
    index("candidates_interview_submitted_idx")
      .on(table.companyId, table.interviewId, table.submittedAt, table.id)
      .where(sql`not ${table.isPreview} and ${table.submittedAt} is not null`),
    index("candidates_started_idx").on(table.companyId, table.startedAt, table.id).where(sql`not ${table.isPreview}`),
    index("candidates_interview_started_idx").on(table.companyId, table.interviewId, table.startedAt, table.id).where(sql`not ${table.isPreview}`),
    index("candidates_in_progress_idx").on(table.companyId, table.startedAt, table.id).where(sql`not ${table.isPreview} and ${table.status} = 'in_progress'`),
    // Empty once the start-up pass has rendered the rows stored before api_json existed.
    index("candidates_unrendered_idx").on(table.id).where(sql`${table.apiJson} is null`),
    index("candidates_attempts_idx").on(table.interviewId, sql`lower(${table.email})`, table.attempt),
  ],
);
