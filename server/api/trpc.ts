/**
 * tRPC for /v1. The HTTP handler (http/v1-handler.ts) creates an `ApiExchange`
 * per request and the context from it; procedure builders narrow the context
 * (`next({ ctx })`) and never change it.
 *
 * - `apiProcedure`: a public /v1 endpoint. Its middleware admits the caller
 *   (./admission.ts) before the input is parsed, so an invalid key, a
 *   suspended company and a rate limit answer before the query's problems,
 *   and every request is counted; the procedure gets `ctx.caller`.
 *
 * Procedures stay thin: they take the validated input (a cursor arrives
 * decoded), call a read service and wrap the result in the success envelope
 * with `ok`. A failure's envelope is written by `errorFormatter`, from the
 * ApiError the failure stands for (http/api-failure.ts).
 */
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { appClock, appDatabase } from "@/server/app-database";
import { admit } from "./admission";
import type { ApiExchange } from "./exchange";
import { errorBody } from "./http/api-failure";

export const createApiContext = (exchange: ApiExchange) => ({ sql: appDatabase().sql, clock: appClock(), exchange });

export type ApiContext = ReturnType<typeof createApiContext>;

const t = initTRPC
  .meta<OpenApiMeta>()
  .context<ApiContext>()
  .create({ errorFormatter: ({ error, ctx }) => errorBody(error, ctx?.exchange) });

export const router = t.router;

export const apiProcedure = t.procedure.use(async ({ ctx, next }) => next({ ctx: { caller: await admit(ctx.sql, ctx.exchange) } }));

/** The success envelope of spec 2.1. */
export const ok = <T>(ctx: ApiContext, data: T) => ({
  success: true as const,
  data,
  timestamp: Math.floor(Date.now() / 1000),
  trace_id: ctx.exchange.traceId,
});
