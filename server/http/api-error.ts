/**
 * The API's errors and the spec's error envelope (section 2.1) they are
 * answered with, with the trace id every answer carries. It lives outside
 * server/api, and imports nothing of it, because the web server's edge
 * (server/runtime/web/server.ts), which answers what never reaches a route,
 * writes the same envelope without loading the API. `message` is safe to
 * show a person and never carries a secret or an internal detail. The status
 * is the code's usual one; the one exception is a write method, which gets
 * 405 with `permission_denied` (docs/decisions/0002-api-non-get-methods.md).
 */
import { randomBytes } from "node:crypto";
import type { Answer } from "./answer";

/** The spec's error codes (section 2.1). */
export const errorCodes = [
  "validation_error",
  "not_found",
  "auth_error",
  "permission_denied",
  "rate_limited",
  "external_service_error",
  "internal_error",
] as const;

export type ApiErrorCode = (typeof errorCodes)[number];

const defaultStatus: Record<ApiErrorCode, number> = {
  validation_error: 422,
  not_found: 404,
  auth_error: 401,
  permission_denied: 403,
  rate_limited: 429,
  external_service_error: 502,
  internal_error: 500,
};

/** Every 401 names the scheme the API wants (RFC 9110, section 11.6.1). */
export const authenticationChallenge = 'Bearer realm="Interview API"';

const defaultHeaders: Partial<Record<ApiErrorCode, Record<string, string>>> = {
  auth_error: { "WWW-Authenticate": authenticationChallenge },
};

export class ApiError extends Error {
  readonly status: number;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    options: { details?: unknown; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = options.status ?? defaultStatus[code];
    this.details = options.details ?? null;
    this.headers = options.headers ?? defaultHeaders[code] ?? {};
  }
}

/** The 405 of every method but GET under /v1 and /downloads (`message` says which is read-only). */
export const methodNotAllowed = (message = "The API is read-only: only GET requests are accepted.") =>
  new ApiError("permission_denied", message, { status: 405, headers: { Allow: "GET" } });

export const newTraceId = () => randomBytes(8).toString("hex");

/** The headers every error answer carries, beside its own. */
export const errorAnswerHeaders = (traceId: string) => ({ "X-Trace-Id": traceId, "Cache-Control": "no-store" });

export function errorEnvelope(error: ApiError, traceId: string) {
  return {
    success: false,
    error: error.code,
    message: error.message,
    details: error.details,
    timestamp: Math.floor(Date.now() / 1000),
    trace_id: traceId,
  };
}

/** An error's whole answer: status, headers and the envelope's text, for each writer to send its own way. */
export function errorResponse(error: ApiError, traceId: string): Answer {
  return {
    status: error.status,
    headers: { "Content-Type": "application/json", ...errorAnswerHeaders(traceId), ...error.headers },
    body: JSON.stringify(errorEnvelope(error, traceId)),
  };
}
