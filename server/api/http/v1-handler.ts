/**
 * Every request under /v1, served by the web server (server/runtime/web/server.ts)
 * on its own `IncomingMessage` and `ServerResponse`, ahead of Next.js.
 * trpc-to-openapi's node handler, built once per process, routes GETs to the
 * procedures and writes their answers; around it, this module gives every
 * answer a trace id (body and `X-Trace-Id`) and the rate-limit headers, and
 * answers what never reaches a procedure: 405 for other methods, 404 for
 * unknown paths, 401 for a key in the address, and the API description.
 *
 * The request's `ApiExchange` (../exchange.ts) is the only way back from the
 * procedure: the caller's rate limit. A failure's status and headers come
 * from `responseMeta` here, its body from tRPC's `errorFormatter` (api-failure.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { databaseUnavailability } from "@/db/availability";
import { looksLikeApiKey } from "@/server/auth/api-key-format";
import { ApiError, errorAnswerHeaders, errorResponse, methodNotAllowed, newTraceId } from "@/server/http/api-error";
import { log, withLogFields } from "@/server/log";
import { metrics } from "@/server/observability/metrics";
import { logOutage } from "@/server/observability/outage-log";
import type { ApiExchange } from "../exchange";
import { rateLimitHeaders } from "../rate-limit-headers";
import { createApiContext } from "../trpc";
import { v1Router } from "../v1/router";
import { apiErrorOf, knownApiError } from "./api-failure";
import { endpointTemplate, methodLabel } from "./endpoint-templates";
import { openApiDocument } from "./openapi-document";

const keyParameterNames = new Set(["api_key", "apikey", "key", "access_token", "token", "authorization", "bearer"]);

/** The exchange of each request in flight, for the handler's callbacks, which get the request. */
const exchanges = new WeakMap<IncomingMessage, ApiExchange>();
const exchangeOf = (request: IncomingMessage) => exchanges.get(request)!;

const limitHeadersOf = (exchange: ApiExchange): Record<string, string> => (exchange.rateLimit ? rateLimitHeaders(exchange.rateLimit) : {});

const procedures = createOpenApiNodeHttpHandler({
  router: v1Router,
  createContext: ({ req }: { req: IncomingMessage }) => createApiContext(exchangeOf(req)),
  responseMeta: ({ ctx, errors }) => {
    const exchange = ctx!.exchange;
    if (errors.length === 0) return { headers: { "X-Trace-Id": exchange.traceId, "Cache-Control": "no-store", ...limitHeadersOf(exchange) } };
    const error = apiErrorOf(errors[0]);
    return { status: error.status, headers: { ...errorAnswerHeaders(exchange.traceId), ...limitHeadersOf(exchange), ...error.headers } };
  },
  onError: ({ error, req, path }: { error: TRPCError; req: IncomingMessage; path?: string }) => {
    if (knownApiError(error)) return;
    const unavailable = databaseUnavailability(error);
    if (unavailable) logOutage("API requests", unavailable);
    else log.error("API request failed", { method: req.method, path, error });
  },
});

/** Writes an error answer that no procedure wrote. */
function sendError(response: ServerResponse, error: ApiError, traceId: string) {
  const { status, headers, body } = errorResponse(error, traceId);
  response.writeHead(status, headers).end(body);
}

/**
 * trpc-to-openapi collects the query into a plain object, so a parameter named
 * like a member of Object.prototype (`constructor`, `toString`, `__proto__`…)
 * makes it throw before any procedure runs. No parameter of ours has such a
 * name and unknown parameters are ignored, so the handler never sees them.
 */
function withoutPrototypeNames(url: URL): string {
  for (const name of [...url.searchParams.keys()]) if (name in Object.prototype) url.searchParams.delete(name);
  return url.search;
}

const keyInAddress = (url: URL) => [...url.searchParams].some(([name, value]) => keyParameterNames.has(name.toLowerCase()) || looksLikeApiKey(value));

/**
 * Answers one request under /v1. Every line logged meanwhile carries its
 * trace id; each request is counted by endpoint template, method and status
 * (and logged at debug level) once its answer is written.
 */
export function serveV1(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const traceId = newTraceId();
  const started = performance.now();
  const url = new URL(request.url ?? "/", "http://v1.invalid");
  const path = url.pathname.replace(/^\/v1/, "") || "/";
  // The description is a document, not an endpoint: neither counted nor logged.
  if (path === "/openapi.json" && request.method === "GET") return Promise.resolve(sendDescription(response));
  response.once("finish", () => {
    const endpoint = endpointTemplate(path);
    const method = methodLabel(request.method ?? "");
    const seconds = (performance.now() - started) / 1000;
    const recorded = metrics();
    recorded.apiRequests.inc({ endpoint, method, status: String(response.statusCode) });
    recorded.apiRequestDuration.observe({ endpoint, method }, seconds);
    if (response.statusCode === 429) recorded.apiRateLimited.inc({ endpoint });
    log.debug("API request", { traceId, endpoint, method, status: response.statusCode, durationMs: Math.round(seconds * 1000) });
  });
  return withLogFields({ traceId }, async () => {
    if (request.method !== "GET") return sendError(response, methodNotAllowed(), traceId);
    if (keyInAddress(url)) {
      const message = "API keys are never accepted in the address. Send the key as `Authorization: Bearer <API key>` and treat the exposed key as compromised.";
      return sendError(response, new ApiError("auth_error", message), traceId);
    }
    exchanges.set(request, { traceId, authorization: request.headers.authorization ?? null });
    // The handler's paths are the router's, without /v1.
    request.url = path + withoutPrototypeNames(url);
    await procedures(request, response, () => sendError(response, new ApiError("not_found", `There is no endpoint GET /v1${path}.`), traceId));
  });
}

/** The API description; needs no key. */
function sendDescription(response: ServerResponse) {
  response.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" });
  response.end(JSON.stringify(openApiDocument()));
}
