/**
 * Errors the API returns, with the spec's error codes only. `message` is safe
 * to show a person and never carries a secret or an internal detail. The
 * status is the code's usual one; the one exception is a write method, which
 * gets 405 with `permission_denied` (README "API decisions").
 */
import { sampleCandidateId, sampleCandidateName } from "@/server/sample-candidate";
import { type ApiErrorCode, readOnlyApiMessage } from "./http/error-envelope";

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

/** One invalid query parameter, as listed in `details.problems` of a 422. */
export type Problem = { parameter: string; code: string; message: string };

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

/** A 422 listing every invalid query parameter. */
export const invalidQuery = (problems: Problem[]) => new ApiError("validation_error", "The query is not valid.", { details: { problems } });

export const notFound = (what: string, id: string) => new ApiError("not_found", `No ${what} with id ${id} was found.`);

/** An unknown candidate; the sample messages' made-up one says what it is, since a receiver trying its handler on a sample may follow the sample's links. */
export const candidateNotFound = (id: string) =>
  id === sampleCandidateId
    ? new ApiError("not_found", `${id} is the made-up candidate of sample webhook messages (${sampleCandidateName}); it has no record in the API.`)
    : notFound("candidate", id);

export const methodNotAllowed = () =>
  new ApiError("permission_denied", readOnlyApiMessage, {
    status: 405,
    headers: { Allow: "GET" },
  });
