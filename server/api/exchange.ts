/**
 * One /v1 request as the HTTP handler and the procedure serving it share it.
 * The handler creates it and builds the tRPC context from it; what the
 * handler needs back to answer is written here and nowhere else.
 */
import type { RateLimitState } from "./rate-limit-headers";

export type ApiExchange = {
  readonly traceId: string;
  /** The request's `Authorization` header, for admission. */
  readonly authorization: string | null;
  /** Set by admission once the caller is known: sent as `RateLimit-*` headers, success or error. */
  rateLimit?: RateLimitState;
  /** Set by the handler's `onError` when tRPC failed the request: an unknown path, invalid input, or an error the procedure threw. */
  failure?: unknown;
  /**
   * A list PostgreSQL wrote as JSON text (`okWithList` in ../trpc.ts): the
   * procedure returns the envelope with this list empty, and the handler puts
   * the text in its place.
   */
  list?: { name: string; json: string };
};
