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
import { ApiError, errorEnvelope, newTraceId } from "@/server/http/api-error";
import { invalidQuery } from "../errors";
import type { ApiExchange } from "../exchange";
import { problemsFromZod } from "../v1/query-params";

export const internalError = () => new ApiError("internal_error", "Something went wrong on our side. Quote the trace_id when contacting support.");

/** The API error a failure stands for; null means a fault of ours (answered as internal_error and logged). */
export function knownApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof ApiError) return error.cause;
    if (error.code === "BAD_REQUEST" && error.cause instanceof ZodError) return invalidQuery(problemsFromZod(error.cause));
  }
  return null;
}

export const apiErrorOf = (error: unknown): ApiError => knownApiError(error) ?? internalError();

/** tRPC's error shape for a /v1 failure: serialises as the envelope (see above). */
export function errorBody(error: TRPCError, exchange: ApiExchange | undefined) {
  const apiError = apiErrorOf(error);
  const envelope = errorEnvelope(apiError, exchange?.traceId ?? newTraceId());
  return { toJSON: () => envelope };
}
