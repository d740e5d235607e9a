/**
 * tRPC for /v1. The HTTP handler (http/v1-handler.ts) creates an `ApiExchange`
 * per request and the context from it; procedure builders narrow the context
 * (`next({ ctx })`) and never change it.
 *
 * - `apiProcedure`: a public /v1 endpoint. It refuses a missing or malformed
 *   key at once and gives the procedure `ctx.admission` (./admission.ts). The
 *   procedure admits the caller once its input is valid, with its page's
 *   query in the same statement (`admitWith`) or alone (`admit`). When the
 *   input is refused before that, the middleware admits the caller alone, so
 *   an invalid key, a suspended company and a rate limit still answer before
 *   the query's problems, and every request is counted.
 *
 * Procedures stay thin: they take the validated input (a cursor arrives
 * decoded), admit, call a read service and wrap the result in the success
 * envelope with `ok` (or `okWithList` for a list written as JSON text by PostgreSQL).
 */
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { appDatabase } from "@/server/app-database";
import { Admission, bearerKeyHash } from "./admission";
import type { ApiExchange } from "./exchange";

export const createApiContext = (exchange: ApiExchange) => ({ sql: appDatabase().sql, exchange });

export type ApiContext = ReturnType<typeof createApiContext>;

const t = initTRPC.meta<OpenApiMeta>().context<ApiContext>().create();

export const router = t.router;

export const apiProcedure = t.procedure.use(async ({ ctx, next }) => {
  const admission = new Admission(ctx.sql, bearerKeyHash(ctx.exchange.authorization), ctx.exchange);
  const result = await next({ ctx: { admission } });
  if (!admission.attempted) {
    // The input was refused before the procedure ran: admission's refusal comes first.
    await admission.admit();
    if (result.ok) throw new Error("A /v1 procedure answered without admitting the caller");
  }
  return result;
});

/** The success envelope of spec 2.1. */
export const ok = <T>(ctx: ApiContext, data: T) => ({
  success: true as const,
  data,
  timestamp: Math.floor(Date.now() / 1000),
  trace_id: ctx.exchange.traceId,
});

/**
 * The success envelope whose first `data` member, `name`, is a list PostgreSQL
 * wrote as JSON text: it goes out as that text, in place of the empty list
 * the output schema checks here (the text's bytes are tested against the Node
 * path in tests/api/json-text.test.ts).
 */
export const okWithList = <Name extends string, Rest extends object>(ctx: ApiContext, name: Name, json: string, rest: Rest) => {
  ctx.exchange.list = { name, json };
  return ok(ctx, { [name]: [] as never[], ...rest } as { [K in Name]: never[] } & Rest);
};
