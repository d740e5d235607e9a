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
};
