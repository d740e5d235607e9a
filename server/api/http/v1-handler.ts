/**
 * Every request under /v1 comes through here. trpc-to-openapi routes GETs to
 * the procedures; this wrapper gives every answer the spec's envelope, a
 * trace id (body and `X-Trace-Id`), the rate-limit headers, and turns what
 * went wrong into the right error: 405 for other methods, 404 for unknown
 * paths, 422 with every problem for bad query parameters.
 *
 * The request's `ApiExchange` (../exchange.ts) is the only way back from the
 * procedure: the caller's rate limit and the failure, if any.
 */

import { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { ZodError } from "zod";
import { looksLikeApiKey } from "@/server/auth/api-key-format";
import { log, withLogFields } from "@/server/log";
import { metrics } from "@/server/observability/metrics";
import { ApiError, invalidQuery, methodNotAllowed } from "../errors";
import type { ApiExchange } from "../exchange";
import { rateLimitHeaders } from "../rate-limit-headers";
import { type ApiContext, createApiContext } from "../trpc";
import { problemsFromZod } from "../v1/query-params";
import { v1Router } from "../v1/router";
import { endpointTemplate, methodLabel } from "./endpoint-templates";
import { errorAnswerHeaders, errorEnvelope, newTraceId } from "./error-envelope";

const keyParameterNames = new Set(["api_key", "apikey", "key", "access_token", "token", "authorization", "bearer"]);

export function errorResponse(error: ApiError, traceId: string, extraHeaders: Record<string, string> = {}): Response {
  return Response.json(errorEnvelope(error.code, error.message, traceId, error.details), {
    status: error.status,
    headers: { ...errorAnswerHeaders(traceId), ...extraHeaders, ...error.headers },
  });
}

/** The API error a failed request stands for; null means a fault of ours (answered as internal_error and logged). */
function toApiError(error: unknown, method: string, path: string): ApiError | null {
  if (error instanceof TRPCError) {
    if (error.cause instanceof ApiError) return error.cause;
    if (error.code === "BAD_REQUEST" && error.cause instanceof ZodError) {
      return invalidQuery(problemsFromZod(error.cause));
    }
    if (error.code === "NOT_FOUND" && !error.cause) {
      return new ApiError("not_found", `There is no endpoint ${method} /v1${path}.`);
    }
  }
  return null;
}

/**
 * trpc-to-openapi collects the query into a plain object, so a parameter named
 * like a member of Object.prototype (`constructor`, `toString`, `__proto__`…)
 * makes it throw before any procedure runs. No parameter of ours has such a
 * name and unknown parameters are ignored, so the adapter never sees them.
 */
function withoutPrototypeNames(url: URL): URL {
  const clashing = [...url.searchParams.keys()].filter((name) => name in Object.prototype);
  if (clashing.length === 0) return url;
  const kept = new URL(url);
  for (const name of clashing) kept.searchParams.delete(name);
  return kept;
}

/** What the adapter gets as its request: the fetch Request, its address without `/v1`, and the exchange. */
type AdapterRequest = Request & { readonly exchange: ApiExchange };

/** What the adapter writes its answer to; `end` settles the request's promise. */
type AdapterResponse = {
  statusCode: number;
  headers: Record<string, string>;
  setHeader: (name: string, value: string | string[]) => void;
  end: (body?: string) => void;
};

/**
 * trpc-to-openapi's handler and its table of routes, built once per process
 * (its fetch adapter builds both again on every request). The exchange travels
 * on the request it is given.
 */
let adapter: ((request: AdapterRequest, response: AdapterResponse) => Promise<void>) | undefined;
function openApiAdapter() {
  adapter ??= createOpenApiNodeHttpHandler({
    router: v1Router,
    createContext: ({ req }: { req: AdapterRequest }): ApiContext => createApiContext(req.exchange),
    onError: ({ error, req }: { error: unknown; req: AdapterRequest }) => {
      req.exchange.failure = error;
    },
  } as never) as unknown as typeof adapter;
  return adapter!;
}

/** Runs the request through trpc-to-openapi: the status, headers and body it answers. */
function runProcedure(request: Request, url: URL, exchange: ApiExchange) {
  const address = `${url.origin}${url.pathname.replace(/^\/v1/, "")}${url.search}`;
  const adapterRequest = new Proxy(request, {
    get: (target, property) => (property === "url" ? address : property === "exchange" ? exchange : Reflect.get(target, property, target)),
  }) as AdapterRequest;
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const response: AdapterResponse = {
      statusCode: 200,
      headers: {},
      setHeader(name, value) {
        response.headers[name] = typeof value === "string" ? value : value.join(", ");
      },
      end(body) {
        resolve({ status: response.statusCode, headers: response.headers, body: body ?? "" });
      },
    };
    openApiAdapter()(adapterRequest, response).catch(reject);
  });
}

/** The body with a list PostgreSQL wrote as JSON text in place of the empty one the procedure returned (see `okWithList`). */
function withList(body: string, list: { name: string; json: string }): string {
  const empty = `{"success":true,"data":{"${list.name}":[]`;
  if (!body.startsWith(empty)) throw new Error(`The envelope does not start with an empty ${list.name} list`);
  return `{"success":true,"data":{"${list.name}":${list.json}${body.slice(empty.length)}`;
}

const internalError = () => new ApiError("internal_error", "Something went wrong on our side. Quote the trace_id when contacting support.");

/**
 * Every line logged while the request is answered carries its trace id; each
 * request is counted by endpoint template, method and status (and logged at
 * debug level).
 */
export async function handleV1Request(request: Request): Promise<Response> {
  const traceId = newTraceId();
  const started = performance.now();
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/v1/, "") || "/";
  return withLogFields({ traceId }, async () => {
    const response = await answerV1Request(request, traceId, url, path);
    const endpoint = endpointTemplate(path);
    const method = methodLabel(request.method);
    const seconds = (performance.now() - started) / 1000;
    const recorded = metrics();
    recorded.apiRequests.inc({ endpoint, method, status: String(response.status) });
    recorded.apiRequestDuration.observe({ endpoint, method }, seconds);
    if (response.status === 429) recorded.apiRateLimited.inc({ endpoint });
    log.debug("API request", { endpoint, method, status: response.status, durationMs: Math.round(seconds * 1000) });
    return response;
  });
}

async function answerV1Request(request: Request, traceId: string, url: URL, path: string): Promise<Response> {
  if (request.method !== "GET") return errorResponse(methodNotAllowed(), traceId);

  const keyInAddress = [...url.searchParams].some(([name, value]) => keyParameterNames.has(name.toLowerCase()) || looksLikeApiKey(value));
  if (keyInAddress) {
    return errorResponse(
      new ApiError(
        "auth_error",
        "API keys are never accepted in the address. Send the key as `Authorization: Bearer <API key>` and treat the exposed key as compromised.",
      ),
      traceId,
    );
  }

  const exchange: ApiExchange = { traceId, authorization: request.headers.get("authorization") };
  try {
    const answer = await runProcedure(request, withoutPrototypeNames(url), exchange);
    const limitHeaders: Record<string, string> = exchange.rateLimit ? rateLimitHeaders(exchange.rateLimit) : {};
    if (answer.status >= 200 && answer.status < 300) {
      const body = exchange.list ? withList(answer.body, exchange.list) : answer.body;
      return new Response(body, {
        status: answer.status,
        headers: { ...answer.headers, "X-Trace-Id": traceId, "Cache-Control": "no-store", ...limitHeaders },
      });
    }
    const apiError = toApiError(exchange.failure, request.method, path);
    if (apiError) return errorResponse(apiError, traceId, limitHeaders);
    log.error("API request failed", { method: request.method, path, error: exchange.failure });
    return errorResponse(internalError(), traceId, limitHeaders);
  } catch (error) {
    log.error("API request failed", { method: request.method, path, error });
    return errorResponse(internalError(), traceId);
  }
}
