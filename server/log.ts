/**
 * One-line JSON logs on stderr. Callers pass facts, never secrets: keys,
 * signing secrets and passwords are not logged anywhere in the product.
 */
import { env } from "@/server/env";

type Level = "debug" | "info" | "warn" | "error";

function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  const line = { level, time: new Date().toISOString(), message, ...fields };
  process.stderr.write(`${JSON.stringify(line, errorReplacer)}\n`);
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack, cause: value.cause };
  }
  return typeof value === "bigint" ? value.toString() : value;
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => {
    if (env.LOG_LEVEL === "debug") write("debug", message, fields);
  },
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
