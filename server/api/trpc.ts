/**
 * tRPC for /v1. The HTTP handler (http/v1-handler.ts) creates an `ApiExchange`
 * per request and the context from it; procedure builders narrow the context
 * (`next({ ctx })`) and never change it.
 *
 * - `apiProcedure`: a public /v1 endpoint. It admits the caller by API key
 *   (authentication, suspension, rate limits) before the input is read, notes
 *   the caller's rate limit on the exchange for the response headers, and
 *   gives the procedure `ctx.caller`.
 *
 * Procedures stay thin: they take the validated input (a cursor arrives
 * decoded), call a read service and wrap the result in the success envelope
 * with `ok`.
 */
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { appDatabase } from "@/server/app-database";
import { admit } from "./admission";
import type { ApiExchange } from "./exchange";

export const createApiContext = (exchange: ApiExchange) => ({ sql: appDatabase().sql, exchange });

export type ApiContext = ReturnType<typeof createApiContext>;

const t = initTRPC.meta<OpenApiMeta>().context<ApiContext>().create();

export const router = t.router;

export const apiProcedure = t.procedure.use(async ({ ctx, next }) => {
  const caller = await admit(ctx.sql, ctx.exchange.authorization);
  ctx.exchange.rateLimit = caller.rateLimit;
  return next({ ctx: { caller } });
});

/** The success envelope of spec 2.1. */
export const ok = <T>(ctx: ApiContext, data: T) => ({
  success: true as const,
  data,
  timestamp: Math.floor(Date.now() / 1000),
  trace_id: ctx.exchange.traceId,
});
