/**
 * The `RateLimit-*` headers, defined once: the values every admitted answer
 * carries (`rateLimitHeaders`), and how /v1/openapi.json describes them
 * (`rateLimitHeaderSchemas`: zod-openapi registers each under
 * `components.headers` by its name, where the error responses refer to it too).
 */
import { z } from "zod";

/** The tighter of the caller's two buckets, as `api_admit` reports it. */
export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

const count = (name: string, description: string) =>
  z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ header: { id: name, description } });

export const rateLimitHeaderSchemas = {
  "RateLimit-Limit": count("RateLimit-Limit", "requests allowed per minute by the tighter of the key's and the company's limits"),
  "RateLimit-Remaining": count("RateLimit-Remaining", "requests left now"),
  "RateLimit-Reset": count("RateLimit-Reset", "seconds until the window is full again"),
};

export function rateLimitHeaders(state: RateLimitState): Record<keyof typeof rateLimitHeaderSchemas, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}
