/**
 * The objects of spec section 2, as zod schemas: they validate what the API
 * returns and become the components of /v1/openapi.json. Every field is
 * required; a missing value is null.
 */
import { z } from "zod";
import {
  accessModes,
  aiModes,
  aiStepTypes,
  candidateStatuses,
  changedByTypes,
  eventTypes,
  highlightTypes,
  incompleteReasons,
  interviewStatuses,
  questionTypes,
  recommendations,
  recordingStatuses,
  resultStates,
} from "@/db/schema";

const dateTime = z.iso.datetime().meta({ description: "RFC 3339 date-time in UTC" });
const uri = z.url();

/** The success envelope around an endpoint's `data` (spec 2.1); this API never sets the optional `message`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    message: z.string().optional(),
    data,
    timestamp: z.int().meta({ description: "unix seconds" }),
    trace_id: z.string(),
  });
}

export const meSchema = z
  .object({
    company: z.object({ id: z.string(), name: z.string() }),
    api_key: z.object({ id: z.string(), name: z.string() }),
  })
  .meta({ id: "Me" });

export const formQuestionSchema = z
  .object({
    id: z.string().meta({ description: "key of a candidate's answers; never changes even if the question is reworded" }),
    text: z.string(),
    type: z.enum(questionTypes),
    required: z.boolean(),
    choices: z.array(z.string()),
  })
  .meta({ id: "FormQuestion" });

export const interviewSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(interviewStatuses),
    language: z.string(),
    access_mode: z.enum(accessModes),
    pass_mark: z.int().nullable(),
    candidate_link: uri,
    created_at: dateTime,
    published_at: dateTime.nullable(),
    closed_at: dateTime.nullable(),
    steps: z
      .object({
        form: z
          .object({ questions: z.array(formQuestionSchema) })
          .meta({ id: "FormStep" })
          .nullable(),
        ai_interview: z
          .object({
            type: z.enum(aiStepTypes),
            mode: z.enum(aiModes),
            language: z.string(),
            time_limit_minutes: z.int(),
            question_count: z.int(),
            skills: z.array(z.string()),
          })
          .meta({ id: "AIStep" })
          .nullable(),
        document: z
          .object({ label: z.string(), description: z.string(), accepted_types: z.array(z.string()), required: z.boolean() })
          .meta({ id: "DocumentStep" })
          .nullable(),
      })
      .meta({ id: "InterviewSteps" }),
  })
  .meta({ id: "Interview" });

export const resultSchema = z
  .object({
    state: z.enum(resultStates),
    incomplete_reason: z.enum(incompleteReasons).nullable(),
    score: z.int().min(0).max(100).nullable(),
    recommendation: z.enum(recommendations).nullable(),
    recommendation_label: z.string().nullable(),
    pass_mark: z.int().nullable(),
    summary: z.string().nullable(),
    strengths: z.array(z.string()),
    areas_to_improve: z.array(z.string()),
    skills: z.record(z.string(), z.int().min(0).max(100)),
    highlights: z.array(z.object({ quote: z.string(), type: z.enum(highlightTypes), why: z.string() }).meta({ id: "Highlight" })),
    ended_for_conduct: z.boolean(),
  })
  .meta({ id: "Result" });

export const candidateSchema = z
  .object({
    id: z.string(),
    attempt: z.int().min(1),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    interview: z.object({ id: z.string(), title: z.string() }).meta({ id: "InterviewRef" }),
    status: z.enum(candidateStatuses),
    status_label: z.string(),
    rejection_reason: z.string().nullable(),
    started_at: dateTime,
    submitted_at: dateTime.nullable(),
    result: resultSchema,
    ai_interview: z
      .object({
        mode: z.enum(aiModes),
        language: z.string(),
        duration_seconds: z.int().nullable(),
        questions_asked: z.int(),
        questions_answered: z.int(),
        recording: z
          .object({ status: z.enum(recordingStatuses), url: uri.nullable() })
          .meta({ id: "Recording", description: "url is null when nothing can be downloaded" }),
        transcript_url: uri,
      })
      .meta({ id: "AIInterview" })
      .nullable(),
    answers: z.record(z.string(), z.object({ question: z.string(), answer: z.string() }).meta({ id: "Answer" })),
    documents: z.array(
      z
        .object({
          id: z.string(),
          label: z.string(),
          file_name: z.string(),
          content_type: z.string().nullable(),
          size_bytes: z.int().nullable(),
          url: uri,
        })
        .meta({ id: "Document" }),
    ),
    dashboard_url: uri,
  })
  .meta({ id: "Candidate" });

export const transcriptEntrySchema = z
  .object({ index: z.int(), question: z.string(), answer: z.string(), speaking_seconds: z.int() })
  .meta({ id: "TranscriptEntry" });

export const recordingDownloadSchema = z
  .object({
    status: z.enum(recordingStatuses),
    content_type: z.string(),
    duration_seconds: z.int().nullable(),
    download_url: uri.meta({ description: "valid for 15 minutes; usable without the key" }),
    expires_at: dateTime,
  })
  .meta({ id: "RecordingDownload" });

export const fileDownloadSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    content_type: z.string().nullable(),
    size_bytes: z.int().nullable(),
    download_url: uri.meta({ description: "valid for 15 minutes; usable without the key" }),
    expires_at: dateTime,
  })
  .meta({ id: "FileDownload" });

export const eventSchema = z
  .object({
    id: z.string().meta({ description: "the same when the event is received again; use it to ignore repeats" }),
    type: z.enum(eventTypes),
    created_at: dateTime,
    api_version: z.literal("v1"),
    test: z.boolean(),
    change: z
      .object({
        from: z.string(),
        to: z.string(),
        by: z.object({ type: z.enum(changedByTypes), name: z.string() }).meta({ id: "ChangedBy" }),
      })
      .meta({ id: "StatusChange" })
      .nullable(),
    candidate: candidateSchema,
  })
  .meta({ id: "Event" });
