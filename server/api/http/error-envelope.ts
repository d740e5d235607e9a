/**
 * The spec's error envelope (section 2.1) and the trace id every answer
 * carries. It imports nothing of the API, so the web server's
 * edge (server/runtime/web-server.ts), which answers what never reaches
 * Next.js, writes the same envelope without loading the API.
 */
import { randomBytes } from "node:crypto";

/** The spec's error codes (section 2.1); ../errors.ts gives each its usual status. */
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

export const newTraceId = () => randomBytes(8).toString("hex");

export const readOnlyApiMessage = "The API is read-only: only GET requests are accepted.";

/** The headers every error answer carries, beside its own. */
export const errorAnswerHeaders = (traceId: string) => ({ "X-Trace-Id": traceId, "Cache-Control": "no-store" });

export function errorEnvelope(code: ApiErrorCode, message: string, traceId: string, details: unknown = null) {
  return { success: false, error: code, message, details, timestamp: Math.floor(Date.now() / 1000), trace_id: traceId };
}
