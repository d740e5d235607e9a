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
     * @description Once per attempt, when the AI score is saved; never before `candidate.submitted`. Not sent when the interview could not be scored.
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
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
     * @description Once per attempt, when `result.state` becomes final: `complete`, `incomplete` (see `result.incomplete_reason`) or `not_applicable`. Afterwards nothing more arrives for the attempt except status changes.
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
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
     * @description On every status change after submission, by the AI or the team; `change` holds `from`, `to` and `by`.
     *
     *     Sent as an HTTPS POST of the `Event` (the same object as in GET /v1/events), with the candidate's latest data at the time of sending; `change` keeps what changed at the time.
     *
     *     - **Answer** with any 2xx status within 10 seconds. Anything else, a redirect (not followed) or no answer counts as a failure: retried after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours (9 tries).
     *     - **Repeats** can happen: `id` (and `Service-Event-Id`, `webhook-id`) stays the same, so ignore an id already handled.
     *     - **Order**: messages about one candidate arrive in the order they happened.
     *     - **Verify** with the raw body as received, by either header family: `Service-Signature` (Stripe's scheme) or `webhook-signature` (Standard Webhooks), both keyed with the webhook's signing secret.
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
      company: {
        id: string;
        name: string;
      };
      api_key: {
        id: string;
        name: string;
      };
    };
    Interview: {
      id: string;
      title: string;
      /** @enum {string} */
      status: "draft" | "active" | "paused" | "closed";
      language: string;
      /** @enum {string} */
      access_mode: "public" | "invite_only";
      pass_mark: number | null;
      /** Format: uri */
      candidate_link: string;
      /**
       * Format: date-time
       * @description RFC 3339 date-time in UTC
       */
      created_at: string;
      published_at: string | null;
      closed_at: string | null;
      steps: components["schemas"]["InterviewSteps"];
    };
    InterviewSteps: {
      form: components["schemas"]["FormStep"] | null;
      ai_interview: components["schemas"]["AIStep"] | null;
      document: components["schemas"]["DocumentStep"] | null;
    };
    FormStep: {
      questions: components["schemas"]["FormQuestion"][];
    };
    FormQuestion: {
      /** @description key of a candidate's answers; never changes even if the question is reworded */
      id: string;
      text: string;
      /** @enum {string} */
      type: "open_text" | "mcq" | "yes_no";
      required: boolean;
      choices: string[];
    };
    AIStep: {
      /** @enum {string} */
      type: "scripted" | "ai_led";
      /** @enum {string} */
      mode: "video" | "audio_only";
      language: string;
      time_limit_minutes: number;
      question_count: number;
      skills: string[];
    };
    DocumentStep: {
      label: string;
      description: string;
      accepted_types: string[];
      required: boolean;
    };
    Candidate: {
      id: string;
      attempt: number;
      name: string;
      email: string;
      phone: string | null;
      interview: components["schemas"]["InterviewRef"];
      /** @enum {string} */
      status: "in_progress" | "passed" | "needs_review" | "did_not_pass" | "shortlisted" | "on_hold" | "rejected" | "cancelled" | "abandoned";
      status_label: string;
      rejection_reason: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 date-time in UTC
       */
      started_at: string;
      submitted_at: string | null;
      result: components["schemas"]["Result"];
      ai_interview: components["schemas"]["AIInterview"] | null;
      answers: {
        [key: string]: components["schemas"]["Answer"];
      };
      documents: components["schemas"]["Document"][];
      /** Format: uri */
      dashboard_url: string;
    };
    InterviewRef: {
      id: string;
      title: string;
    };
    Result: {
      /** @enum {string} */
      state: "waiting" | "complete" | "incomplete" | "not_applicable";
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
      score: number | null;
      recommendation: ("strongly_recommend" | "recommended" | "consider" | "not_recommended") | null;
      recommendation_label: string | null;
      pass_mark: number | null;
      summary: string | null;
      strengths: string[];
      areas_to_improve: string[];
      skills: {
        [key: string]: number;
      };
      highlights: components["schemas"]["Highlight"][];
      ended_for_conduct: boolean;
    };
    Highlight: {
      quote: string;
      /** @enum {string} */
      type: "strength" | "concern" | "insight" | "conduct";
      why: string;
    };
    AIInterview: {
      /** @enum {string} */
      mode: "video" | "audio_only";
      language: string;
      duration_seconds: number | null;
      questions_asked: number;
      questions_answered: number;
      recording: components["schemas"]["Recording"];
      /** Format: uri */
      transcript_url: string;
    };
    /** @description url is null when nothing can be downloaded */
    Recording: {
      /** @enum {string} */
      status: "processing" | "ready" | "failed" | "none" | "deleted";
      url: string | null;
    };
    Answer: {
      question: string;
      answer: string;
    };
    Document: {
      id: string;
      label: string;
      file_name: string;
      content_type: string | null;
      size_bytes: number | null;
      /** Format: uri */
      url: string;
    };
    TranscriptEntry: {
      index: number;
      question: string;
      answer: string;
      speaking_seconds: number;
    };
    RecordingDownload: {
      /** @enum {string} */
      status: "processing" | "ready" | "failed" | "none" | "deleted";
      content_type: string;
      duration_seconds: number | null;
      /**
       * Format: uri
       * @description valid for 15 minutes; usable without the key
       */
      download_url: string;
      /**
       * Format: date-time
       * @description RFC 3339 date-time in UTC
       */
      expires_at: string;
    };
    Event: {
      /** @description the same when the event is received again; use it to ignore repeats */
      id: string;
      /** @enum {string} */
      type: "candidate.submitted" | "candidate.scored" | "candidate.ready" | "candidate.status_changed";
      /**
       * Format: date-time
       * @description RFC 3339 date-time in UTC
       */
      created_at: string;
      /** @constant */
      api_version: "v1";
      test: boolean;
      change: components["schemas"]["StatusChange"] | null;
      candidate: components["schemas"]["Candidate"];
    };
    StatusChange: {
      from: string;
      to: string;
      by: components["schemas"]["ChangedBy"];
    };
    ChangedBy: {
      /** @enum {string} */
      type: "team" | "ai" | "system" | "candidate";
      name: string;
    };
    FileDownload: {
      id: string;
      name: string | null;
      content_type: string | null;
      size_bytes: number | null;
      /**
       * Format: uri
       * @description valid for 15 minutes; usable without the key
       */
      download_url: string;
      /**
       * Format: date-time
       * @description RFC 3339 date-time in UTC
       */
      expires_at: string;
    };
    Error: {
      /** @constant */
      success: false;
      /** @enum {string} */
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
      /** @enum {string} */
      code: "invalid_type" | "out_of_range" | "invalid_value" | "invalid_format" | "invalid_cursor";
      /** @description what is wrong, in words */
      message: string;
    };
    ValidationError: components["schemas"]["Error"] & {
      /** @constant */
      error?: "validation_error";
      details: {
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
            /** @constant */
            success: true;
            message?: string;
            data: components["schemas"]["Me"];
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              interviews: components["schemas"]["Interview"][];
              next_cursor: string | null;
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              interview: components["schemas"]["Interview"];
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              candidates: components["schemas"]["Candidate"][];
              next_cursor: string | null;
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              candidate: components["schemas"]["Candidate"];
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              transcript: components["schemas"]["TranscriptEntry"][];
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              recording: components["schemas"]["RecordingDownload"];
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              events: components["schemas"]["Event"][];
              next_cursor: string;
              has_more: boolean;
            };
            /** @description unix seconds */
            timestamp: number;
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
            /** @constant */
            success: true;
            message?: string;
            data: {
              file: components["schemas"]["FileDownload"];
            };
            /** @description unix seconds */
            timestamp: number;
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
