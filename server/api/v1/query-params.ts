/**
 * Query parameter schemas. Each checks its own value and says what is wrong
 * in words; a request with several bad parameters gets every problem at once
 * (see problemsFromZod). The OpenAPI document shows what a client sends (a
 * string); `limit` reaches the procedure as its number and a cursor decoded,
 * the other values as the checked strings.
 */
import { z } from "zod";
import { invalidQuery, type Problem } from "@/server/api/errors";
import { holdsNoNul } from "@/server/read/stored-values";
import { type Cursor, type CursorKind, decodeCursor, positionFor } from "@/server/security/cursors";

/**
 * A parameter sent more than once (`?status=a&status=b`) reaches its schema as
 * the list of its values. Each schema says so in words rather than in zod's
 * ("expected string, received array"), and problemsFromZod files it as
 * `invalid_type` whatever the schema.
 */
const givenMoreThanOnce = "is given more than once; send it once (a list parameter takes its values in one, separated by commas)";
const once = (rule: string) => (issue: { input?: unknown }) => (Array.isArray(issue.input) ? givenMoreThanOnce : rule);

/**
 * A page size: plain decimal digits, leading zeros allowed. Number() would also
 * read `1e1`, `0x10`, `+5` and ` 5`; those are refused. Whatever is wrong, the
 * parameter gets one problem. Documented as the integer it stands for.
 */
export const limitParam = (max: number) => {
  const rule = `must be a whole number from 1 to ${max}`;
  return z
    .string({ error: once(rule) })
    .superRefine((raw, ctx) => {
      if (!/^[0-9]+$/.test(raw)) ctx.addIssue({ code: "custom", params: { code: "invalid_type" }, message: rule });
      else if (Number(raw) < 1 || Number(raw) > max) ctx.addIssue({ code: "custom", params: { code: "out_of_range" }, message: rule });
    })
    .transform(Number)
    .default(25)
    .meta({ description: `1 to ${max}; default 25`, override: { type: "integer", minimum: 1, maximum: max, default: 25 } });
};

export const enumParam = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: once(`must be one of ${values.join(", ")}`) });

/** One or more values separated by commas, each one of `values`. */
export const enumListParam = (values: readonly string[]) =>
  z
    .string({ error: once(`must list one or more of ${values.join(", ")}`) })
    .superRefine((raw, ctx) => {
      const items = splitList(raw);
      if (items.length === 0) ctx.addIssue({ code: "custom", message: `must list one or more of ${values.join(", ")}` });
      const unknown = [...new Set(items.filter((item) => !values.includes(item)))];
      if (unknown.length > 0) {
        const quoted = unknown.map((item) => `"${item}"`).join(", ");
        const named = unknown.length === 1 ? `an unknown value ${quoted}` : `unknown values ${quoted}`;
        ctx.addIssue({ code: "custom", params: { code: "invalid_value" }, message: `has ${named}; use ${values.join(", ")}` });
      }
    })
    .meta({ description: `one or more of ${values.join(", ")}, separated by commas` });

export const splitList = (raw: string) =>
  raw
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * An id to filter by. Ids are opaque: any text is taken, and an unknown id
 * matches nothing. Only NUL is refused, since PostgreSQL text cannot hold it
 * (and so no id has it).
 */
export const idParam = () =>
  z.string({ error: once("must be an id") }).refine(holdsNoNul, { params: { code: "invalid_value" }, message: "is not an id: it contains a NUL character" });

export const dateTimeParam = () => z.iso.datetime({ offset: true, error: once("must be an RFC 3339 date-time, for example 2026-11-01T09:00:00Z") });

/**
 * A cursor this API returned for one of `kinds`, decoded. Whose it is can only
 * be checked once the caller is known: the procedure reads it with `cursorPosition`.
 */
export const cursorParam = <T>(kinds: CursorKind[]) =>
  z.string({ error: once("must be a cursor this API returned") }).transform((raw, ctx): Cursor<T> => {
    const check = decodeCursor<T>(kinds, raw);
    if (check.ok) return check.value;
    ctx.addIssue({ code: "custom", params: { code: "invalid_cursor" }, message: check.reason });
    return z.NEVER;
  });

/** Where a `cursorParam` points; a 422 when it belongs to another company than the caller's. */
export function cursorPosition<T>(parameter: string, cursor: Cursor<T>, companyId: string): T {
  const check = positionFor(cursor, companyId);
  if (!check.ok) throw invalidQuery([{ parameter, code: "invalid_cursor", message: check.reason }]);
  return check.value;
}

const problemCodes: Record<string, string> = {
  invalid_type: "invalid_type",
  too_small: "out_of_range",
  too_big: "out_of_range",
  invalid_value: "invalid_value",
  invalid_format: "invalid_format",
};

/** Turns zod's issues into the `details.problems` items of a 422. */
export function problemsFromZod(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => {
    const custom = issue.code === "custom" ? (issue.params as { code?: string } | undefined)?.code : undefined;
    return {
      parameter: String(issue.path[0] ?? ""),
      code: issue.message === givenMoreThanOnce ? "invalid_type" : (custom ?? problemCodes[issue.code] ?? "invalid_value"),
      message: issue.message,
    };
  });
}
