import type { components } from "./openapi-types.js";

export type ErrorCode = components["schemas"]["Error"]["error"];
export type Problem = components["schemas"]["Problem"];

/** Set when the answer was not the API's error envelope (a proxy's page, an empty body). */
export const unexpectedResponse = "unexpected_response";

/**
 * A refused call: the API's error envelope, with the HTTP status and headers.
 * Field names are the envelope's own, so they read the same as in the API's documentation.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly error: ErrorCode | typeof unexpectedResponse;
  readonly trace_id: string | null;
  /** The envelope's `details`: `problems` for 422, `recording_status` for a recording's 404, otherwise null. */
  readonly details: unknown;
  /** `details.problems` of a 422 (one per invalid query parameter); empty for other errors. */
  readonly problems: Problem[];
  readonly headers: Headers;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body : null;
    super(envelope?.message ?? `The API answered ${response.status} ${response.statusText} without its error envelope.`);
    this.name = "ApiError";
    this.status = response.status;
    this.error = envelope?.error ?? unexpectedResponse;
    this.trace_id = envelope?.trace_id ?? response.headers.get("x-trace-id");
    this.details = envelope?.details ?? null;
    this.problems = problemsIn(this.details);
    this.headers = response.headers;
  }
}

function isErrorEnvelope(body: unknown): body is components["schemas"]["Error"] {
  return typeof body === "object" && body !== null && "success" in body && body.success === false && "error" in body && typeof body.error === "string";
}

function problemsIn(details: unknown): Problem[] {
  if (typeof details !== "object" || details === null || !("problems" in details) || !Array.isArray(details.problems)) return [];
  return details.problems as Problem[];
}

/**
 * An `ApiError` in one paragraph for a person: the message, each of a 422's
 * problems (which parameter, what is wrong), the status and the trace id to
 * quote to support. Both command lines print refusals with it.
 */
export function explainApiError(error: ApiError): string {
  const problems = error.problems.map((problem) => `\n  ${problem.parameter}: ${problem.message}`).join("");
  return `${error.message}${problems}\n(HTTP ${error.status}, trace ${error.trace_id})`;
}
