/** Parsing helpers shared by the CLI's commands. */
import type postgres from "postgres";
import type { DomainContext } from "@/server/domain/context";

export type Flags = Record<string, string | boolean | undefined>;
/** The write path and the read pool. */
export type CliContext = { ctx: DomainContext; sql: postgres.Sql };
export type Output = { json: Record<string, unknown>; text: string };
export type Command = {
  usage: string;
  options: Record<string, { type: "string" | "boolean" }>;
  run: (cli: CliContext, flags: Flags, args: string[]) => Promise<Output>;
};

export class UsageError extends Error {}

export function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

export function positional(args: string[], what: string): string {
  const [value] = args;
  if (!value) throw new UsageError(`${what} is required`);
  return value;
}

export function count(flags: Flags, name: string, fallback: number): number {
  const value = flags[name];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (typeof value !== "string" || !Number.isInteger(number) || number < 0) {
    throw new UsageError(`--${name} must be a whole number, got ${String(value)}`);
  }
  return number;
}

export const text = { type: "string" } as const;
export const flag = { type: "boolean" } as const;
