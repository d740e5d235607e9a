/** What every /v1 procedure's meta shares. */
import { z } from "zod";

export const rateLimitHeaders = z.object({
  "RateLimit-Limit": z.string().meta({ description: "requests allowed per minute by the tighter of the key's and the company's limits" }),
  "RateLimit-Remaining": z.string().meta({ description: "requests left in the current window" }),
  "RateLimit-Reset": z.string().meta({ description: "seconds until the window is full again" }),
  "X-Trace-Id": z.string().meta({ description: "the response's trace_id" }),
});

export const openapi = (spec: { path: `/${string}`; operationId: string; summary: string; description?: string; tags: string[] }) => ({
  openapi: {
    method: "GET" as const,
    protect: true,
    responseHeaders: rateLimitHeaders,
    ...spec,
  },
});
