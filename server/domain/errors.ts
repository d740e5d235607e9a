import { z } from "zod";

/** A refused domain operation. `code` says why; `message` is fit to show a person. */
export class DomainError extends Error {
  constructor(
    readonly code: "not_found" | "invalid_state" | "invalid_input" | "conflict",
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string, id: string) => new DomainError("not_found", `No ${what} with id ${id}.`);
export const invalidState = (message: string) => new DomainError("invalid_state", message);
export const invalidInput = (message: string) => new DomainError("invalid_input", message);

/**
 * The one way domain input is checked against a schema: the parsed value, or
 * an `invalid_input` error listing every problem in words (never a raw
 * ZodError, which callers would take for an internal fault). A schema's own
 * messages are sentences that name their subject and stand as written; zod's
 * general ones get the field they are about in front.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input, { error: namingTheField });
  if (!parsed.success) throw invalidInput(parsed.error.issues.map((issue) => (/[.!?]$/.test(issue.message) ? issue.message : `${issue.message}.`)).join(" "));
  return parsed.data;
}

const english = z.locales.en();

function namingTheField(issue: z.core.$ZodRawIssue) {
  const general = english.localeError(issue);
  const message = typeof general === "string" ? general : (general?.message ?? "is not valid");
  return issue.path && issue.path.length > 0 ? `${issue.path.join(".")}: ${message}` : message;
}
