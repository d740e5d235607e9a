/** The declaration every command makes, and the parsing helpers they share. */
import type postgres from "postgres";
import type { DomainContext } from "@/server/domain/context";
import type { AddressOptions } from "@/server/webhooks/admin/webhook-settings";

export type Flags = Record<string, string | boolean | undefined>;
/** The write path, the read pool, and how webhook addresses are vetted (WEBHOOK_ALLOW_TARGETS). */
export type CliContext = { ctx: DomainContext; sql: postgres.Sql; webhookAddresses: AddressOptions };
export type Output = { json: Record<string, unknown>; text: string };
/** One option: parsed by `node:util` parseArgs, and described by the help from the same declaration. */
export type Option = {
  type: "string" | "boolean";
  description: string;
  /** What a string option takes, as help shows it: `--company ID`. */
  value?: string;
  required?: boolean;
};
/** What the parser reads and help shows, the same for every command. */
export type CommandDeclaration = {
  summary: string;
  /** The positional argument, as help shows it: `ID`. */
  argument?: string;
  options: Record<string, Option>;
  /** What --json prints, when it is not the one JSON object every other command prints. */
  jsonOutput?: string;
};
/** A command on the database: main.ts reads the settings and starts the database first. */
export type Command = CommandDeclaration & { run: (cli: CliContext, flags: Flags, args: string[]) => Promise<Output> };
/** A command that only calls the API over HTTP (`listen`): it needs neither the settings nor a database. */
export type StandaloneCommand = CommandDeclaration & { standalone: true; run: (flags: Flags, args: string[]) => Promise<Output> };

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

export const text = (value: string, description: string): Option => ({ type: "string", value, description });
export const requiredText = (value: string, description: string): Option => ({ type: "string", value, description, required: true });
export const flag = (description: string): Option => ({ type: "boolean", description });
