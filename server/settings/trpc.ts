/**
 * tRPC for the settings pages (`/api/trpc`, never part of the public API).
 *
 * - `signedInProcedure`: any signed-in user, admin or member; the company always
 *   comes from the session, never from the input.
 * - `adminProcedure`: admins only (keys, secrets, full addresses, bodies, changes).
 *
 * Every mutation must come from our own pages: next-auth's CSRF token does not
 * cover tRPC, so the web server's edge refuses one whose `Origin` is another
 * site (server/security/same-site.ts), and mutations here need a JSON body,
 * which a cross-site form cannot send either.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type postgres from "postgres";
import type { Member } from "@/server/auth/members";
import type { DomainContext } from "@/server/domain/context";
import { DomainError } from "@/server/domain/errors";

export type SettingsContext = {
  member: Member | null;
  domain: DomainContext;
  sql: postgres.Sql;
  /** True when the request says its body is JSON. */
  jsonBody: boolean;
};

const t = initTRPC.context<SettingsContext>().create({
  errorFormatter({ shape, error }) {
    return { message: messageFor(error), code: shape.code, data: { code: shape.data.code, httpStatus: shape.data.httpStatus } };
  },
});

export const router = t.router;

/** Invalid input lists every problem in words; internal faults are logged by the route handler and say nothing more. */
function messageFor(error: TRPCError) {
  if (error.code === "INTERNAL_SERVER_ERROR") return "Something went wrong on our side. Try again in a moment.";
  const issues = (error.cause as { issues?: Array<{ message: string }> } | undefined)?.issues;
  if (error.code === "BAD_REQUEST" && Array.isArray(issues)) return issues.map((issue) => issue.message).join(" ");
  return error.message;
}

const statusOf: Record<DomainError["code"], TRPCError["code"]> = {
  not_found: "NOT_FOUND",
  invalid_input: "BAD_REQUEST",
  invalid_state: "CONFLICT",
  conflict: "CONFLICT",
};

/** A refused domain operation reaches the page with its own message, fit to show. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    throw new TRPCError({ code: statusOf[result.error.cause.code], message: result.error.cause.message, cause: result.error.cause });
  }
  return result;
});

export const signedInProcedure = t.procedure.use(domainErrors).use(({ ctx, type, next }) => {
  if (!ctx.member) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  if (type === "mutation" && !ctx.jsonBody) {
    throw new TRPCError({ code: "FORBIDDEN", message: "Changes must come from the settings pages (a JSON body)." });
  }
  return next({ ctx: { ...ctx, member: ctx.member } });
});

export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.member.role !== "admin") throw new TRPCError({ code: "FORBIDDEN", message: "Only admins can do this." });
  return next();
});
