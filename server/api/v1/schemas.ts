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

/** A property's description, as the reference and generated clients show it; every property has one (tests/api/openapi.test.ts). */
const described = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });

/** RFC 3339 in UTC; the document says `format: date-time` (zod's own checking pattern is removed from it, openapi-document.ts). */
const dateTime = (description: string) => described(z.iso.datetime(), `${description}; an RFC 3339 date-time in UTC`);
const nullableDateTime = (description: string) => described(z.iso.datetime().nullable(), `${description}; an RFC 3339 date-time in UTC`);
const uri = z.url();
const id = (what: string) => described(z.string(), `the ${what}'s id; an opaque string`);

/** The success envelope around an endpoint's `data` (spec 2.1); this API never sets the optional `message`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    success: described(z.literal(true), "always true"),
    message: described(z.string(), "optional; this API does not send it").optional(),
    data: described(data, "the result; its shape is per endpoint"),
    timestamp: described(z.int(), "when the answer was made, in unix seconds"),
    trace_id: described(z.string(), "identifies this request; the same as the X-Trace-Id header. Quote it when contacting support"),
  });
}

export const meSchema = z
  .object({
    company: described(z.object({ id: id("company"), name: described(z.string(), "the company's name") }), "the company the API key belongs to"),
    api_key: described(
      z.object({ id: id("API key"), name: described(z.string(), "the name the key was given when it was created") }),
      "the API key making the call",
    ),
  })
  .meta({ id: "Me" });

export const formQuestionSchema = z
  .object({
    id: described(z.string(), "key of a candidate's answers; never changes even if the question is reworded"),
    text: described(z.string(), "the question as the candidate sees it"),
    type: described(z.enum(questionTypes), "open_text (free text), mcq (one of `choices`) or yes_no"),
    required: described(z.boolean(), "whether the candidate must answer it"),
    choices: described(z.array(z.string()), "options for mcq; empty list for other types"),
  })
  .meta({ id: "FormQuestion" });

export const interviewSchema = z
  .object({
    id: id("interview"),
    title: described(z.string(), "the interview's title"),
    status: described(z.enum(interviewStatuses), "draft, active (taking candidates), paused or closed"),
    language: described(z.string(), "the interview's language"),
    access_mode: described(z.enum(accessModes), "public (anyone with the link) or invite_only"),
    pass_mark: described(z.int().nullable(), "the score from 0 to 100 a candidate needs to pass; null when the interview has none"),
    candidate_link: described(uri, "the link candidates open"),
    created_at: dateTime("when the interview was created"),
    published_at: nullableDateTime("when the interview was first published; null until then"),
    closed_at: nullableDateTime("when the interview was closed; null unless closed"),
    steps: described(
      z
        .object({
          form: described(
            z
              .object({ questions: described(z.array(formQuestionSchema), "the form's questions, in the order they are asked") })
              .meta({ id: "FormStep" })
              .nullable(),
            "the form step; null when the interview has none",
          ),
          ai_interview: described(
            z
              .object({
                type: described(z.enum(aiStepTypes), "scripted (asks the customer's questions word for word) or ai_led (writes its own questions)"),
                mode: described(z.enum(aiModes), "video or audio_only"),
                language: described(z.string(), "the language the AI interview is held in"),
                time_limit_minutes: described(z.int(), "how long the AI interview may last, in minutes"),
                question_count: described(z.int(), "how many questions the AI asks"),
                skills: described(z.array(z.string()), "skills candidates are scored on"),
              })
              .meta({ id: "AIStep" })
              .nullable(),
            "the AI interview step; null when the interview has none",
          ),
          document: described(
            z
              .object({
                label: described(z.string(), "what the interview asks the candidate to upload"),
                description: described(z.string(), "more about the document asked for, as the candidate reads it"),
                accepted_types: described(z.array(z.string()), "the file types accepted"),
                required: described(z.boolean(), "whether the candidate must upload it"),
              })
              .meta({ id: "DocumentStep" })
              .nullable(),
            "the document upload step; null when the interview has none",
          ),
        })
        .meta({ id: "InterviewSteps" }),
      "the steps a candidate goes through",
    ),
  })
  .meta({ id: "Interview" });

export const resultSchema = z
  .object({
    state: described(
      z.enum(resultStates),
      "waiting (not final: the candidate is still taking the interview, or the score or recording is still coming), " +
        "complete (the AI score and the recording are in), incomplete (final, but something is missing; see incomplete_reason) " +
        "or not_applicable (the interview has no AI step)",
    ),
    incomplete_reason: described(
      z.enum(incompleteReasons).nullable(),
      "what is missing when state is incomplete (not_submitted: the attempt ended without submission); null otherwise",
    ),
    score: described(z.int().min(0).max(100).nullable(), "the AI score, 0 to 100; null until scored"),
    recommendation: described(z.enum(recommendations).nullable(), "the AI's recommendation; null until scored"),
    recommendation_label: described(z.string().nullable(), "display text of the recommendation"),
    pass_mark: described(z.int().nullable(), "the interview's pass mark, if it has one"),
    summary: described(z.string().nullable(), "the AI's summary of the interview"),
    strengths: described(z.array(z.string()), "the candidate's strengths, as the AI found them"),
    areas_to_improve: described(z.array(z.string()), "what the candidate could improve, as the AI found it"),
    skills: described(z.record(z.string(), z.int().min(0).max(100)), "skill name to score 0 to 100"),
    highlights: described(
      z.array(
        z
          .object({
            quote: described(z.string(), "the candidate's own words"),
            type: described(z.enum(highlightTypes), "strength, concern, insight or conduct"),
            why: described(z.string(), "why it stands out, in one sentence"),
          })
          .meta({ id: "Highlight" }),
      ),
      "moments of the interview worth reading",
    ),
    ended_for_conduct: described(z.boolean(), "true when the AI interview was ended for repeated conduct violations"),
  })
  .meta({ id: "Result" });

export const candidateSchema = z
  .object({
    id: id("candidate"),
    attempt: described(z.int().min(1), "1 for the first attempt; a retake is a new candidate with attempt 2"),
    name: described(z.string(), "the candidate's name"),
    email: described(z.string(), "the candidate's email address"),
    phone: described(z.string().nullable(), "the candidate's phone number, when given"),
    interview: described(
      z.object({ id: id("interview"), title: described(z.string(), "the interview's title") }).meta({ id: "InterviewRef" }),
      "the interview this is an attempt at",
    ),
    status: described(z.enum(candidateStatuses), "in_progress, passed, needs_review, did_not_pass, shortlisted, on_hold, rejected, cancelled or abandoned"),
    status_label: described(z.string(), "display text of the status"),
    rejection_reason: described(z.string().nullable(), "why the candidate was rejected, when the status is rejected and a reason was given"),
    started_at: dateTime("when the candidate started"),
    submitted_at: nullableDateTime("when every step was finished; null while still in progress"),
    result: described(resultSchema, "the AI's assessment and whether it is final"),
    ai_interview: described(
      z
        .object({
          mode: described(z.enum(aiModes), "video or audio_only"),
          language: described(z.string(), "the language the AI interview was held in"),
          duration_seconds: described(z.int().nullable(), "how long the AI interview lasted, in seconds; null until it ends"),
          questions_asked: described(z.int(), "how many questions the AI asked"),
          questions_answered: described(z.int(), "how many of them the candidate answered"),
          recording: described(
            z
              .object({
                status: described(
                  z.enum(recordingStatuses),
                  "processing (on its way; it may arrive up to about two days after the interview), ready, " +
                    "failed (did not arrive or could not be processed), none (the device recorded nothing) or deleted (removed after the retention period)",
                ),
                url: described(uri.nullable(), "an API link needing the key that returns a download link; null when nothing can be downloaded"),
              })
              .meta({ id: "Recording" }),
            "the AI interview's recording",
          ),
          transcript_url: described(uri, "API link to the transcript; needs the key"),
        })
        .meta({ id: "AIInterview" })
        .nullable(),
      "null when the interview has no AI step or it has not started",
    ),
    answers: described(
      z.record(
        z.string(),
        z
          .object({
            question: described(z.string(), "the question's text as the candidate saw it"),
            answer: described(z.string(), "the answer as text; yes/no answers are the text Yes or No"),
          })
          .meta({ id: "Answer" }),
      ),
      "form answers keyed by the question id from the interview's `steps.form.questions`",
    ),
    documents: described(
      z.array(
        z
          .object({
            id: id("file"),
            label: described(z.string(), "what the interview asked for"),
            file_name: described(z.string(), "the file's name as uploaded"),
            content_type: described(z.string().nullable(), "the file's media type, when known"),
            size_bytes: described(z.int().nullable(), "the file's size in bytes, when known"),
            url: described(uri, "API link; needs the key; leads to the file endpoint"),
          })
          .meta({ id: "Document" }),
      ),
      "the documents the candidate uploaded",
    ),
    dashboard_url: described(uri, "the candidate's page in the product; needs a product sign-in"),
  })
  .meta({ id: "Candidate" });

export const transcriptEntrySchema = z
  .object({
    index: described(z.int(), "the entry's place in the interview, from 0"),
    question: described(z.string(), "what the AI asked"),
    answer: described(z.string(), "what the candidate answered"),
    speaking_seconds: described(z.int(), "how long the candidate spoke, in seconds"),
  })
  .meta({ id: "TranscriptEntry" });

const downloadUrl = () => described(uri, "valid for 15 minutes; usable without the key");

export const recordingDownloadSchema = z
  .object({
    status: described(z.enum(recordingStatuses), "the recording's status; always ready here"),
    content_type: described(z.string(), "the recording's media type"),
    duration_seconds: described(z.int().nullable(), "the recording's length in seconds, when known"),
    download_url: downloadUrl(),
    expires_at: dateTime("when download_url stops working"),
  })
  .meta({ id: "RecordingDownload" });

export const fileDownloadSchema = z
  .object({
    id: id("file"),
    name: described(z.string().nullable(), "the file's name, when known"),
    content_type: described(z.string().nullable(), "the file's media type, when known"),
    size_bytes: described(z.int().nullable(), "the file's size in bytes, when known"),
    download_url: downloadUrl(),
    expires_at: dateTime("when download_url stops working"),
  })
  .meta({ id: "FileDownload" });

export const eventSchema = z
  .object({
    id: described(z.string(), "stays the same when the event is received again; use it to ignore repeats"),
    type: described(z.enum(eventTypes), "candidate.submitted, candidate.scored, candidate.ready or candidate.status_changed"),
    created_at: dateTime("when it happened"),
    api_version: described(z.literal("v1"), "always v1"),
    test: described(z.boolean(), "true for samples sent on request from the product; false for real events"),
    change: described(
      z
        .object({
          from: described(z.string(), "the public status code before"),
          to: described(z.string(), "the public status code after"),
          by: described(
            z
              .object({
                type: described(z.enum(changedByTypes), "team, ai, system or candidate"),
                name: described(z.string(), "who made the change; for type team, the person's name"),
              })
              .meta({ id: "ChangedBy" }),
            "who made the change",
          ),
        })
        .meta({ id: "StatusChange", description: "frozen at the time of the change" })
        .nullable(),
      "set only on candidate.status_changed",
    ),
    candidate: described(candidateSchema, "the candidate's latest data, not a copy frozen at event time"),
  })
  .meta({ id: "Event" });
