/** What every /v1 procedure's meta shares. */
import { z } from "zod";
import { rateLimitHeaderSchemas } from "../rate-limit-headers";

/** Every success carries these; each is registered under `components.headers` by its name. */
const successHeaders = z.object({
  "X-Trace-Id": z.string().meta({ header: { id: "X-Trace-Id", description: "the same as the body's trace_id" } }),
  ...rateLimitHeaderSchemas,
});

export const openapi = (spec: { path: `/${string}`; operationId: string; summary: string; description?: string; tags: string[] }) => ({
  openapi: {
    method: "GET" as const,
    protect: true,
    responseHeaders: successHeaders,
    ...spec,
  },
});
