/**
 * One-line JSON logs on stderr. Callers pass facts, never secrets: keys,
 * signing secrets and passwords are not logged anywhere in the product.
 *
 * `withLogFields` adds fields to every line written while a piece of work
 * runs (an API request's trace id, a delivery's event and message ids), so
 * code deeper down need not pass them along.
 *
 * Should a secret still reach a line (an error message quoting a header, say),
 * it is masked on the way out: a webhook signing secret, a full API key, a
 * signature value or an `Authorization` value never reaches the log. The mask
 * says `[redacted]`, so a test can tell that something tried.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "@/server/env";

type Level = typeof env.LOG_LEVEL;
/** Most severe first: a line is written when its level is at or above LOG_LEVEL's. */
const severity: Record<Level, number> = { error: 0, warn: 1, info: 2, debug: 3 };
type Fields = Record<string, unknown>;

// Next.js may bundle this module more than once in one process; the fields of
// the work under way must be the same for every copy.
const shared = globalThis as unknown as { __logFields?: AsyncLocalStorage<Fields> };
shared.__logFields ??= new AsyncLocalStorage<Fields>();
const context = shared.__logFields;

/** Runs `work` with `fields` on every line it logs (nested calls add to the outer fields). */
export function withLogFields<T>(fields: Fields, work: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, work);
}

const secretPatterns: Array<[RegExp, string]> = [
  [/whsec_[A-Za-z0-9+/=_-]+/g, "whsec_[redacted]"],
  // The first six characters after `ivk_` are the key's display prefix, shown in the settings too.
  [/(ivk_[1-9A-HJ-NP-Za-km-z]{6})[1-9A-HJ-NP-Za-km-z]{14,34}/g, "$1[redacted]"],
  [/v1,[A-Za-z0-9+/]{20,}={0,2}/g, "v1,[redacted]"],
  [/v1=[0-9a-f]{64}/g, "v1=[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"\\]+/gi, "$1 [redacted]"],
];

export function maskSecrets(text: string): string {
  let masked = text;
  for (const [pattern, replacement] of secretPatterns) masked = masked.replace(pattern, replacement);
  return masked;
}

function write(level: Level, message: string, fields: Fields = {}) {
  if (severity[level] > severity[env.LOG_LEVEL]) return;
  const line = { level, time: new Date().toISOString(), message, ...context.getStore(), ...fields };
  process.stderr.write(`${maskSecrets(JSON.stringify(line, errorReplacer))}\n`);
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack, cause: value.cause };
  }
  return typeof value === "bigint" ? value.toString() : value;
}

export const log = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
