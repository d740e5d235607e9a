/**
 * The Interview API's types, generated from /v1/openapi.json by openapi-typescript.
 * Do not edit: `npm run client:generate` writes this file again.
 */

export interface paths {
  "/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The company and API key making the call */
    get: operations["getMe"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/interviews": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Interviews, newest first
     * @description Deleted interviews are never listed. Follow `next_cursor` (null on the last page) as `cursor`.
     */
    get: operations["listInterviews"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/interviews/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One interview with its steps
     * @description Form question ids are the keys of candidates' `answers`.
     */
    get: operations["getInterview"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/candidates": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Candidates (attempts)
     * @description state=submitted (default) lists by most recent submission first; in_progress and all list newest started first. The order does not change while paging: following `next_cursor` skips no one. Previews are never listed.
     */
    get: operations["listCandidates"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/candidates/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One attempt, in any state */
    get: operations["getCandidate"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/candidates/{id}/transcript": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The AI interview, question by question
     * @description An empty list when there is no AI interview yet.
     */
    get: operations["getTranscript"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/candidates/{id}/recording": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A download link for the AI interview recording
     * @description Only a `ready` recording can be downloaded. For `processing`, `failed`, `none` and `deleted` recordings, and when the candidate has no AI interview, the answer is 404 with `details.recording_status` (null without an AI interview).
     */
    get: operations["getRecording"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The change history, oldest first
     * @description Covers the last 30 days. `next_cursor` is returned on every response, even an empty one: store it and send it as `after` to receive only newer events. `has_more` true means more events are waiting now.
     */
    get: operations["listEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/files/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A download link for a candidate's document
     * @description Works for files in a candidate's `documents` list.
     */
    get: operations["getFile"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  "candidate.submitted": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A candidate submitted an attempt
     * @description Once per attempt, when the candidate has finished every step.
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
     *     - **Custom headers**: besides the headers below, a webhook can carry up to 5 headers of the admin's choosing on every try, retry, resend, sample and past event (for a receiver that checks its own API key or `Authorization` header). Their names cannot be `Host`, `Content-Length`, `Content-Type`, `Transfer-Encoding`, `Connection`, `User-Agent` or start with `Service-`, `webhook-`, `Proxy-` or `Sec-`.
     *     - **Conditions**: a webhook receives only its chosen event types and interviews and, when set, only the events its conditions let through (see each type); an event that does not match is never sent to it and holds back none of its later messages. Samples (`"test": true`) are sent whatever the conditions.
     */
    post: operations["candidateSubmitted"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "candidate.scored": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An attempt was scored
     * @description Once per attempt, when the AI score is saved; never before `candidate.submitted`. Not sent when the interview could not be scored. A webhook can be set to receive it only when the score is at least a number, or the recommendation is one of those chosen.
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
     *     - **Custom headers**: besides the headers below, a webhook can carry up to 5 headers of the admin's choosing on every try, retry, resend, sample and past event (for a receiver that checks its own API key or `Authorization` header). Their names cannot be `Host`, `Content-Length`, `Content-Type`, `Transfer-Encoding`, `Connection`, `User-Agent` or start with `Service-`, `webhook-`, `Proxy-` or `Sec-`.
     *     - **Conditions**: a webhook receives only its chosen event types and interviews and, when set, only the events its conditions let through (see each type); an event that does not match is never sent to it and holds back none of its later messages. Samples (`"test": true`) are sent whatever the conditions.
     */
    post: operations["candidateScored"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "candidate.ready": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An attempt's result is final
     * @description Once per attempt, when `result.state` becomes final: `complete`, `incomplete` (see `result.incomplete_reason`) or `not_applicable`. Afterwards nothing more arrives for the attempt except status changes. A webhook can be set to receive it only when the score is at least a number, or the recommendation is one of those chosen (a candidate without a score matches neither).
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
     *     - **Custom headers**: besides the headers below, a webhook can carry up to 5 headers of the admin's choosing on every try, retry, resend, sample and past event (for a receiver that checks its own API key or `Authorization` header). Their names cannot be `Host`, `Content-Length`, `Content-Type`, `Transfer-Encoding`, `Connection`, `User-Agent` or start with `Service-`, `webhook-`, `Proxy-` or `Sec-`.
     *     - **Conditions**: a webhook receives only its chosen event types and interviews and, when set, only the events its conditions let through (see each type); an event that does not match is never sent to it and holds back none of its later messages. Samples (`"test": true`) are sent whatever the conditions.
     */
    post: operations["candidateReady"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "candidate.status_changed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A candidate's status changed
     * @description On every status change after submission, by the AI or the team; `change` holds `from`, `to` and `by`. A webhook can be set to receive it only when `change.to` is one of the statuses chosen.
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
     *     - **Custom headers**: besides the headers below, a webhook can carry up to 5 headers of the admin's choosing on every try, retry, resend, sample and past event (for a receiver that checks its own API key or `Authorization` header). Their names cannot be `Host`, `Content-Length`, `Content-Type`, `Transfer-Encoding`, `Connection`, `User-Agent` or start with `Service-`, `webhook-`, `Proxy-` or `Sec-`.
     *     - **Conditions**: a webhook receives only its chosen event types and interviews and, when set, only the events its conditions let through (see each type); an event that does not match is never sent to it and holds back none of its later messages. Samples (`"test": true`) are sent whatever the conditions.
     */
    post: operations["candidateStatusChanged"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    Me: {
      /** @description the company the API key belongs to */
      company: {
        /** @description the company's id; an opaque string */
        id: string;
        /** @description the company's name */
        name: string;
      };
      /** @description the API key making the call */
      api_key: {
        /** @description the API key's id; an opaque string */
        id: string;
        /** @description the name the key was given when it was created */
        name: string;
      };
    };
    Interview: {
      /** @description the interview's id; an opaque string */
      id: string;
      /** @description the interview's title */
      title: string;
      /**
       * @description draft, active (taking candidates), paused or closed
       * @enum {string}
       */
      status: "draft" | "active" | "paused" | "closed";
      /** @description the interview's language */
      language: string;
      /**
       * @description public (anyone with the link) or invite_only
       * @enum {string}
       */
      access_mode: "public" | "invite_only";
      /** @description the score from 0 to 100 a candidate needs to pass; null when the interview has none */
      pass_mark: number | null;
      /**
       * Format: uri
       * @description the link candidates open
       */
      candidate_link: string;
      /**
       * Format: date-time
       * @description when the interview was created; an RFC 3339 date-time in UTC
       */
      created_at: string;
      /** @description when the interview was first published; null until then; an RFC 3339 date-time in UTC */
      published_at: string | null;
      /** @description when the interview was closed; null unless closed; an RFC 3339 date-time in UTC */
      closed_at: string | null;
      /** @description the steps a candidate goes through */
      steps: components["schemas"]["InterviewSteps"];
    };
    FormStep: {
      /** @description the form's questions, in the order they are asked */
      questions: components["schemas"]["FormQuestion"][];
    };
    FormQuestion: {
      /** @description key of a candidate's answers; never changes even if the question is reworded */
      id: string;
      /** @description the question as the candidate sees it */
      text: string;
      /**
       * @description open_text (free text), mcq (one of `choices`) or yes_no
       * @enum {string}
       */
      type: "open_text" | "mcq" | "yes_no";
      /** @description whether the candidate must answer it */
      required: boolean;
      /** @description options for mcq; empty list for other types */
      choices: string[];
    };
    AIStep: {
      /**
       * @description scripted (asks the customer's questions word for word) or ai_led (writes its own questions)
       * @enum {string}
       */
      type: "scripted" | "ai_led";
      /**
       * @description video or audio_only
       * @enum {string}
       */
      mode: "video" | "audio_only";
      /** @description the language the AI interview is held in */
      language: string;
      /** @description how long the AI interview may last, in minutes */
      time_limit_minutes: number;
      /** @description how many questions the AI asks */
      question_count: number;
      /** @description skills candidates are scored on */
      skills: string[];
    };
    DocumentStep: {
      /** @description what the interview asks the candidate to upload */
      label: string;
      /** @description more about the document asked for, as the candidate reads it */
      description: string;
      /** @description the file types accepted */
      accepted_types: string[];
      /** @description whether the candidate must upload it */
      required: boolean;
    };
    InterviewSteps: {
      /** @description the form step; null when the interview has none */
      form: components["schemas"]["FormStep"] | null;
      /** @description the AI interview step; null when the interview has none */
      ai_interview: components["schemas"]["AIStep"] | null;
      /** @description the document upload step; null when the interview has none */
      document: components["schemas"]["DocumentStep"] | null;
    };
    Candidate: {
      /** @description the candidate's id; an opaque string */
      id: string;
      /** @description 1 for the first attempt; a retake is a new candidate with attempt 2 */
      attempt: number;
      /** @description the candidate's name */
      name: string;
      /** @description the candidate's email address */
      email: string;
      /** @description the candidate's phone number, when given */
      phone: string | null;
      /** @description the interview this is an attempt at */
      interview: components["schemas"]["InterviewRef"];
      /**
       * @description in_progress, passed, needs_review, did_not_pass, shortlisted, on_hold, rejected, cancelled or abandoned
       * @enum {string}
       */
      status: "in_progress" | "passed" | "needs_review" | "did_not_pass" | "shortlisted" | "on_hold" | "rejected" | "cancelled" | "abandoned";
      /** @description display text of the status */
      status_label: string;
      /** @description why the candidate was rejected, when the status is rejected and a reason was given */
      rejection_reason: string | null;
      /**
       * Format: date-time
       * @description when the candidate started; an RFC 3339 date-time in UTC
       */
      started_at: string;
      /** @description when every step was finished; null while still in progress; an RFC 3339 date-time in UTC */
      submitted_at: string | null;
      /** @description the AI's assessment and whether it is final */
      result: components["schemas"]["Result"];
      /** @description null when the interview has no AI step or it has not started */
      ai_interview: components["schemas"]["AIInterview"] | null;
      /** @description form answers keyed by the question id from the interview's `steps.form.questions` */
      answers: {
        [key: string]: components["schemas"]["Answer"];
      };
      /** @description the documents the candidate uploaded */
      documents: components["schemas"]["Document"][];
      /**
       * Format: uri
       * @description the candidate's page in the product; needs a product sign-in
       */
      dashboard_url: string;
    };
    InterviewRef: {
      /** @description the interview's id; an opaque string */
      id: string;
      /** @description the interview's title */
      title: string;
    };
    Highlight: {
      /** @description the candidate's own words */
      quote: string;
      /**
       * @description strength, concern, insight or conduct
       * @enum {string}
       */
      type: "strength" | "concern" | "insight" | "conduct";
      /** @description why it stands out, in one sentence */
      why: string;
    };
    Result: {
      /**
       * @description waiting (not final: the candidate is still taking the interview, or the score or recording is still coming), complete (the AI score and the recording are in), incomplete (final, but something is missing; see incomplete_reason) or not_applicable (the interview has no AI step)
       * @enum {string}
       */
      state: "waiting" | "complete" | "incomplete" | "not_applicable";
      /** @description what is missing when state is incomplete (not_submitted: the attempt ended without submission); null otherwise */
      incomplete_reason:
        | (
            | "not_submitted"
            | "interview_not_finished"
            | "too_little_speech"
            | "no_answers"
            | "scoring_failed"
            | "recording_failed"
            | "not_delivered_in_time"
            | "other"
          )
        | null;
      /** @description the AI score, 0 to 100; null until scored */
      score: number | null;
      /** @description the AI's recommendation; null until scored */
      recommendation: ("strongly_recommend" | "recommended" | "consider" | "not_recommended") | null;
      /** @description display text of the recommendation */
      recommendation_label: string | null;
      /** @description the interview's pass mark, if it has one */
      pass_mark: number | null;
      /** @description the AI's summary of the interview */
      summary: string | null;
      /** @description the candidate's strengths, as the AI found them */
      strengths: string[];
      /** @description what the candidate could improve, as the AI found it */
      areas_to_improve: string[];
      /** @description skill name to score 0 to 100 */
      skills: {
        [key: string]: number;
      };
      /** @description moments of the interview worth reading */
      highlights: components["schemas"]["Highlight"][];
      /** @description true when the AI interview was ended for repeated conduct violations */
      ended_for_conduct: boolean;
    };
    AIInterview: {
      /**
       * @description video or audio_only
       * @enum {string}
       */
      mode: "video" | "audio_only";
      /** @description the language the AI interview was held in */
      language: string;
      /** @description how long the AI interview lasted, in seconds; null until it ends */
      duration_seconds: number | null;
      /** @description how many questions the AI asked */
      questions_asked: number;
      /** @description how many of them the candidate answered */
      questions_answered: number;
      /** @description the AI interview's recording */
      recording: components["schemas"]["Recording"];
      /**
       * Format: uri
       * @description API link to the transcript; needs the key
       */
      transcript_url: string;
    };
    Recording: {
      /**
       * @description processing (on its way; it may arrive up to about two days after the interview), ready, failed (did not arrive or could not be processed), none (the device recorded nothing) or deleted (removed after the retention period)
       * @enum {string}
       */
      status: "processing" | "ready" | "failed" | "none" | "deleted";
      /** @description an API link needing the key that returns a download link; null when nothing can be downloaded */
      url: string | null;
    };
    Answer: {
      /** @description the question's text as the candidate saw it */
      question: string;
      /** @description the answer as text; yes/no answers are the text Yes or No */
      answer: string;
    };
    Document: {
      /** @description the file's id; an opaque string */
      id: string;
      /** @description what the interview asked for */
      label: string;
      /** @description the file's name as uploaded */
      file_name: string;
      /** @description the file's media type, when known */
      content_type: string | null;
      /** @description the file's size in bytes, when known */
      size_bytes: number | null;
      /**
       * Format: uri
       * @description API link; needs the key; leads to the file endpoint
       */
      url: string;
    };
    TranscriptEntry: {
      /** @description the entry's place in the interview, from 0 */
      index: number;
      /** @description what the AI asked */
      question: string;
      /** @description what the candidate answered */
      answer: string;
      /** @description how long the candidate spoke, in seconds */
      speaking_seconds: number;
    };
    RecordingDownload: {
      /**
       * @description the recording's status; always ready here
       * @enum {string}
       */
      status: "processing" | "ready" | "failed" | "none" | "deleted";
      /** @description the recording's media type */
      content_type: string;
      /** @description the recording's length in seconds, when known */
      duration_seconds: number | null;
      /**
       * Format: uri
       * @description valid for 15 minutes; usable without the key
       */
      download_url: string;
      /**
       * Format: date-time
       * @description when download_url stops working; an RFC 3339 date-time in UTC
       */
      expires_at: string;
    };
    Event: {
      /** @description stays the same when the event is received again; use it to ignore repeats */
      id: string;
      /**
       * @description candidate.submitted, candidate.scored, candidate.ready or candidate.status_changed
       * @enum {string}
       */
      type: "candidate.submitted" | "candidate.scored" | "candidate.ready" | "candidate.status_changed";
      /**
       * Format: date-time
       * @description when it happened; an RFC 3339 date-time in UTC
       */
      created_at: string;
      /**
       * @description always v1
       * @constant
       */
      api_version: "v1";
      /** @description true for samples sent on request from the product; false for real events */
      test: boolean;
      /** @description set only on candidate.status_changed */
      change: components["schemas"]["StatusChange"] | null;
      /** @description the candidate's latest data, not a copy frozen at event time */
      candidate: components["schemas"]["Candidate"];
    };
    /** @description frozen at the time of the change */
    StatusChange: {
      /** @description the public status code before */
      from: string;
      /** @description the public status code after */
      to: string;
      /** @description who made the change */
      by: components["schemas"]["ChangedBy"];
    };
    ChangedBy: {
      /**
       * @description team, ai, system or candidate
       * @enum {string}
       */
      type: "team" | "ai" | "system" | "candidate";
      /** @description who made the change; for type team, the person's name */
      name: string;
    };
    FileDownload: {
      /** @description the file's id; an opaque string */
      id: string;
      /** @description the file's name, when known */
      name: string | null;
      /** @description the file's media type, when known */
      content_type: string | null;
      /** @description the file's size in bytes, when known */
      size_bytes: number | null;
      /**
       * Format: uri
       * @description valid for 15 minutes; usable without the key
       */
      download_url: string;
      /**
       * Format: date-time
       * @description when download_url stops working; an RFC 3339 date-time in UTC
       */
      expires_at: string;
    };
    Error: {
      /**
       * @description always false
       * @constant
       */
      success: false;
      /**
       * @description the error code; see the Errors guide
       * @enum {string}
       */
      error: "validation_error" | "not_found" | "auth_error" | "permission_denied" | "rate_limited" | "external_service_error" | "internal_error";
      /** @description plain-language text suitable to show a person */
      message: string;
      /** @description extra detail for some errors: `problems` for 422, `recording_status` for a recording 404; otherwise null */
      details: unknown;
      /** @description unix seconds */
      timestamp: number;
      /** @description to be quoted when contacting support */
      trace_id: string;
    };
    /** @description One invalid query parameter. */
    Problem: {
      /** @description the query parameter's name */
      parameter: string;
      /**
       * @description the kind of problem: wrong type, out of range, a value not allowed, a malformed date-time, or a cursor this API did not give for this list
       * @enum {string}
       */
      code: "invalid_type" | "out_of_range" | "invalid_value" | "invalid_format" | "invalid_cursor";
      /** @description what is wrong, in words */
      message: string;
    };
    ValidationError: components["schemas"]["Error"] & {
      /**
       * @description always validation_error
       * @constant
       */
      error?: "validation_error";
      /** @description what is wrong with the query */
      details: {
        /** @description one per invalid query parameter, all at once */
        problems: components["schemas"]["Problem"][];
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description the same as the body's trace_id */
    "X-Trace-Id": string;
    /** @description requests allowed per minute by the tighter of the key's and the company's limits */
    "RateLimit-Limit": string;
    /** @description requests left now */
    "RateLimit-Remaining": string;
    /** @description seconds until the window is full again */
    "RateLimit-Reset": string;
    /** @description seconds to wait before retrying */
    "Retry-After": string;
    /** @description the authentication scheme to use: `Bearer` */
    "WWW-Authenticate": string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: components["schemas"]["Me"];
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listInterviews: {
    parameters: {
      query?: {
        status?: "draft" | "active" | "paused" | "closed";
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description this page of interviews */
              interviews: components["schemas"]["Interview"][];
              /** @description send it as `cursor` for the next page; null on the last page */
              next_cursor: string | null;
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `validation_error`: a query parameter is not valid; `details.problems` lists each problem. */
      422: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getInterview: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description the interview with its steps */
              interview: components["schemas"]["Interview"];
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `not_found`: nothing with this id in the caller's company. */
      404: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listCandidates: {
    parameters: {
      query?: {
        interview_id?: string;
        status?: string;
        state?: "submitted" | "in_progress" | "all";
        submitted_after?: string;
        submitted_before?: string;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description this page of candidates */
              candidates: components["schemas"]["Candidate"][];
              /** @description send it as `cursor` for the next page; null on the last page */
              next_cursor: string | null;
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `validation_error`: a query parameter is not valid; `details.problems` lists each problem. */
      422: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getCandidate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description the candidate (one attempt) */
              candidate: components["schemas"]["Candidate"];
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `not_found`: nothing with this id in the caller's company. */
      404: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getTranscript: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description the AI interview, question by question; empty when there is no AI interview yet */
              transcript: components["schemas"]["TranscriptEntry"][];
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `not_found`: nothing with this id in the caller's company. */
      404: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getRecording: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description a download link for the recording */
              recording: components["schemas"]["RecordingDownload"];
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `not_found`: nothing with this id in the caller's company. */
      404: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        after?: string;
        type?: string;
        interview_id?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description this page of events, oldest first */
              events: components["schemas"]["Event"][];
              /** @description the position after the last event seen; store it and send it as `after` to receive only newer events */
              next_cursor: string;
              /** @description true when more events are waiting now; false when caught up */
              has_more: boolean;
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `validation_error`: a query parameter is not valid; `details.problems` lists each problem. */
      422: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Successful response */
      200: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /**
             * @description always true
             * @constant
             */
            success: true;
            /** @description optional; this API does not send it */
            message?: string;
            /** @description the result; its shape is per endpoint */
            data: {
              /** @description a download link for the file */
              file: components["schemas"]["FileDownload"];
            };
            /** @description when the answer was made, in unix seconds */
            timestamp: number;
            /** @description identifies this request; the same as the X-Trace-Id header. Quote it when contacting support */
            trace_id: string;
          };
        };
      };
      /** @description `auth_error`: the API key is missing, invalid or revoked, or was sent in the address. */
      401: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `permission_denied`: the company account is suspended. */
      403: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `not_found`: nothing with this id in the caller's company. */
      404: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `rate_limited`: wait `Retry-After` seconds, then retry. */
      429: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `internal_error`: quote the trace_id to support. */
      500: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry. */
      503: {
        headers: {
          "X-Trace-Id": components["headers"]["X-Trace-Id"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  candidateSubmitted: {
    parameters: {
      query?: never;
      header: {
        /** @description `InterviewAPI-Webhooks/1.0 (+<the service's address>)`. */
        "User-Agent": string;
        /** @description The event's id, equal to the body's `id`; the same on every retry and resend. Use it to ignore repeats. */
        "Service-Event-Id": string;
        /** @description The event type, equal to the body's `type`. */
        "Service-Event-Type": "candidate.submitted";
        /** @description 1 for the first try, 2 for the first retry, and so on, at most 9. */
        "Service-Delivery-Attempt": string;
        /** @description `t=<unix seconds>,v1=<hex digest>`: a hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's whole signing secret, `whsec_` prefix included. During the 24 hours after the secret is replaced it holds two `v1` values, one per secret: accept the message when one matches. Reject it when `t` is more than 5 minutes from your clock. Stripe's libraries verify it as it is, e.g. `stripe.webhooks.constructEvent(rawBody, header, secret)`. */
        "Service-Signature": string;
        /** @description [Standard Webhooks](https://www.standardwebhooks.com): the message id, equal to `Service-Event-Id`. */
        "webhook-id": string;
        /** @description Standard Webhooks: when the message was signed, in unix seconds (the `t` of `Service-Signature`). */
        "webhook-timestamp": string;
        /** @description Standard Webhooks: `v1,<base64 digest>`, a base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes that the secret's part after `whsec_` decodes to; during the 24 hours after a replacement, two values separated by a space. Any Standard Webhooks library verifies it with the secret as shown, e.g. `new Webhook(secret).verify(rawBody, headers)`. */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Event"];
      };
    };
    responses: {
      /** @description Received: any 2xx status within 10 seconds. The body is ignored. */
      "2XX": {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A failure: the message is sent again later (see above), with `Service-Delivery-Attempt` one higher. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  candidateScored: {
    parameters: {
      query?: never;
      header: {
        /** @description `InterviewAPI-Webhooks/1.0 (+<the service's address>)`. */
        "User-Agent": string;
        /** @description The event's id, equal to the body's `id`; the same on every retry and resend. Use it to ignore repeats. */
        "Service-Event-Id": string;
        /** @description The event type, equal to the body's `type`. */
        "Service-Event-Type": "candidate.scored";
        /** @description 1 for the first try, 2 for the first retry, and so on, at most 9. */
        "Service-Delivery-Attempt": string;
        /** @description `t=<unix seconds>,v1=<hex digest>`: a hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's whole signing secret, `whsec_` prefix included. During the 24 hours after the secret is replaced it holds two `v1` values, one per secret: accept the message when one matches. Reject it when `t` is more than 5 minutes from your clock. Stripe's libraries verify it as it is, e.g. `stripe.webhooks.constructEvent(rawBody, header, secret)`. */
        "Service-Signature": string;
        /** @description [Standard Webhooks](https://www.standardwebhooks.com): the message id, equal to `Service-Event-Id`. */
        "webhook-id": string;
        /** @description Standard Webhooks: when the message was signed, in unix seconds (the `t` of `Service-Signature`). */
        "webhook-timestamp": string;
        /** @description Standard Webhooks: `v1,<base64 digest>`, a base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes that the secret's part after `whsec_` decodes to; during the 24 hours after a replacement, two values separated by a space. Any Standard Webhooks library verifies it with the secret as shown, e.g. `new Webhook(secret).verify(rawBody, headers)`. */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Event"];
      };
    };
    responses: {
      /** @description Received: any 2xx status within 10 seconds. The body is ignored. */
      "2XX": {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A failure: the message is sent again later (see above), with `Service-Delivery-Attempt` one higher. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  candidateReady: {
    parameters: {
      query?: never;
      header: {
        /** @description `InterviewAPI-Webhooks/1.0 (+<the service's address>)`. */
        "User-Agent": string;
        /** @description The event's id, equal to the body's `id`; the same on every retry and resend. Use it to ignore repeats. */
        "Service-Event-Id": string;
        /** @description The event type, equal to the body's `type`. */
        "Service-Event-Type": "candidate.ready";
        /** @description 1 for the first try, 2 for the first retry, and so on, at most 9. */
        "Service-Delivery-Attempt": string;
        /** @description `t=<unix seconds>,v1=<hex digest>`: a hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's whole signing secret, `whsec_` prefix included. During the 24 hours after the secret is replaced it holds two `v1` values, one per secret: accept the message when one matches. Reject it when `t` is more than 5 minutes from your clock. Stripe's libraries verify it as it is, e.g. `stripe.webhooks.constructEvent(rawBody, header, secret)`. */
        "Service-Signature": string;
        /** @description [Standard Webhooks](https://www.standardwebhooks.com): the message id, equal to `Service-Event-Id`. */
        "webhook-id": string;
        /** @description Standard Webhooks: when the message was signed, in unix seconds (the `t` of `Service-Signature`). */
        "webhook-timestamp": string;
        /** @description Standard Webhooks: `v1,<base64 digest>`, a base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes that the secret's part after `whsec_` decodes to; during the 24 hours after a replacement, two values separated by a space. Any Standard Webhooks library verifies it with the secret as shown, e.g. `new Webhook(secret).verify(rawBody, headers)`. */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Event"];
      };
    };
    responses: {
      /** @description Received: any 2xx status within 10 seconds. The body is ignored. */
      "2XX": {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A failure: the message is sent again later (see above), with `Service-Delivery-Attempt` one higher. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  candidateStatusChanged: {
    parameters: {
      query?: never;
      header: {
        /** @description `InterviewAPI-Webhooks/1.0 (+<the service's address>)`. */
        "User-Agent": string;
        /** @description The event's id, equal to the body's `id`; the same on every retry and resend. Use it to ignore repeats. */
        "Service-Event-Id": string;
        /** @description The event type, equal to the body's `type`. */
        "Service-Event-Type": "candidate.status_changed";
        /** @description 1 for the first try, 2 for the first retry, and so on, at most 9. */
        "Service-Delivery-Attempt": string;
        /** @description `t=<unix seconds>,v1=<hex digest>`: a hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's whole signing secret, `whsec_` prefix included. During the 24 hours after the secret is replaced it holds two `v1` values, one per secret: accept the message when one matches. Reject it when `t` is more than 5 minutes from your clock. Stripe's libraries verify it as it is, e.g. `stripe.webhooks.constructEvent(rawBody, header, secret)`. */
        "Service-Signature": string;
        /** @description [Standard Webhooks](https://www.standardwebhooks.com): the message id, equal to `Service-Event-Id`. */
        "webhook-id": string;
        /** @description Standard Webhooks: when the message was signed, in unix seconds (the `t` of `Service-Signature`). */
        "webhook-timestamp": string;
        /** @description Standard Webhooks: `v1,<base64 digest>`, a base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes that the secret's part after `whsec_` decodes to; during the 24 hours after a replacement, two values separated by a space. Any Standard Webhooks library verifies it with the secret as shown, e.g. `new Webhook(secret).verify(rawBody, headers)`. */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Event"];
      };
    };
    responses: {
      /** @description Received: any 2xx status within 10 seconds. The body is ignored. */
      "2XX": {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A failure: the message is sent again later (see above), with `Service-Delivery-Attempt` one higher. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
