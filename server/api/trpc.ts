/**
 * tRPC set-up: the request context and the procedure builders.
 *
 * - `apiProcedure`: a public /v1 endpoint. It admits the caller by API key
 *   (authentication, suspension, rate limits) before the input is read, and
 *   runs the rest of the request in the caller's company scope.
 *
 * Procedures stay thin: they validate input, call a read service and wrap the
 * result in the success envelope with `ok`.
 */
import { initTRPC } from "@trpc/server";
import type postgres from "postgres";
import type { OpenApiMeta } from "trpc-to-openapi";
import { admit, type ApiCaller } from "./admission";
import { runInCompanyScope } from "./request-scope";

export type ApiContext = {
  sql: postgres.Sql;
  traceId: string;
  authorization: string | null;
  /** Set once admitted; the HTTP layer reads the rate-limit state from it. */
  caller?: ApiCaller;
};

const t = initTRPC.meta<OpenApiMeta>().context<ApiContext>().create();

export const router = t.router;

export const apiProcedure = t.procedure.use(async ({ ctx, next }) => {
  const caller = await admit(ctx.sql, ctx.authorization);
  ctx.caller = caller;
  return runInCompanyScope(caller.company.id, () => next({ ctx: { ...ctx, caller } }));
});

/** The success envelope of spec 2.1. */
export const ok = <T>(ctx: ApiContext, data: T) => ({
  success: true as const,
  data,
  timestamp: Math.floor(Date.now() / 1000),
  trace_id: ctx.traceId,
});
