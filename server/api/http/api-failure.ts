/**
 * What a failed /v1 procedure answers: the ApiError it stands for, as the
 * spec's envelope.
 *
 * trpc-to-openapi writes a failure as `JSON.stringify({ ...shape, message,
 * code, issues })`, `shape` being what tRPC's `errorFormatter` returns. The
 * shape made here has its own `toJSON`, which the spread copies, so the body
 * written is the envelope alone, byte for byte as every other error answer
 * (tests/api/basics.test.ts and the conformance tests read the bytes).
 */
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { databaseUnavailability } from "@/db/availability";
import { ApiError, errorEnvelope, newTraceId } from "@/server/http/api-error";
import { invalidQuery } from "../errors";
import type { ApiExchange } from "../exchange";
import { problemsFromZod } from "../v1/query-params";

export const internalError = () => new ApiError("internal_error", "Something went wrong on our side. Quote the trace_id when contacting support.");

/** The API error a failure stands for; null means an unavailable database or a fault of ours (see `apiErrorOf`). */
export function knownApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof ApiError) return error.cause;
    if (error.code === "BAD_REQUEST" && error.cause instanceof ZodError) return invalidQuery(problemsFromZod(error.cause));
  }
  return null;
}

/** How long a client is told to wait when the database is unavailable (docs/decisions/0094-api-database-unavailable.md). */
export const unavailableRetryAfterSeconds = 5;

/** The 503 of a request the database could not answer: nothing was read or changed for it, and asking again shortly is safe. */
export const databaseUnavailable = () =>
  new ApiError("external_service_error", `The service cannot reach its database right now. Retry after ${unavailableRetryAfterSeconds} seconds.`, {
    status: 503,
    headers: { "Retry-After": String(unavailableRetryAfterSeconds) },
  });

/** The answer to any failure: the API error it stands for, 503 while the database is unavailable, else internal_error. */
export const apiErrorOf = (error: unknown): ApiError => knownApiError(error) ?? (databaseUnavailability(error) ? databaseUnavailable() : internalError());

/** tRPC's error shape for a /v1 failure: serialises as the envelope (see above). */
export function errorBody(error: TRPCError, exchange: ApiExchange | undefined) {
  const apiError = apiErrorOf(error);
  const envelope = errorEnvelope(apiError, exchange?.traceId ?? newTraceId());
  return { toJSON: () => envelope };
}
