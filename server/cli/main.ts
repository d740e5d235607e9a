/**
 * `npm run cli -- <command> [--json]`. With --json, stdout carries exactly one
 * JSON object (`listen`: one per line until stopped); errors go to stderr with
 * a non-zero exit (1: refused, 2: usage). `help`, `-h` and `--help` print help
 * on stdout, before any database starts; standalone commands (`listen`) start none.
 */
import { parseArgs } from "node:util";
import { ApiError, explainApiError, ListenError } from "@interview-api/client";
import { DomainError } from "@/server/domain/errors";
import { MissingSetting } from "@/server/missing-setting";
import { type Command, type Flags, type Output, UsageError } from "./arguments";
import { commands } from "./commands";
import { databaseFailure } from "./database-failure";
import { commandHelp, commonOptions, overview, usage } from "./help";

const argv = process.argv.slice(2);
const json = argv.includes("--json");
const asksForHelp = argv[0] === "help" || argv.includes("--help") || argv.includes("-h");
const words = argv[0] === "help" ? argv.slice(1) : argv;
const name = [`${words[0]} ${words[1]}`, words[0]].find((candidate) => candidate && commands[candidate]);

function fail(code: number, kind: string, message: string): never {
  process.stderr.write(json ? `${JSON.stringify({ error: { code: kind, message } })}\n` : `error: ${message}\n`);
  process.exit(code);
}

/** A command's help, a group's (`webhook --help`), or the overview; null when the word names nothing. */
function helpFor(): string | null {
  if (name) return commandHelp(name, commands[name]!);
  const [word] = words;
  if (!word || word.startsWith("-")) return overview(commands);
  return Object.keys(commands).some((known) => known.startsWith(`${word} `)) ? overview(commands, word) : null;
}

const help = asksForHelp ? helpFor() : null;
if (help) {
  process.stdout.write(help);
  process.exit(0);
}
if (!name) {
  const usages = Object.entries(commands).map(([known, command]) => `  ${usage(known, command)}`);
  const what =
    words.length === 0
      ? "a command is needed"
      : `unknown command "${words
          .slice(0, 2)
          .filter((word) => !word.startsWith("-"))
          .join(" ")}"`;
  fail(2, "usage", `${what}. Commands:\n${usages.join("\n")}\n\`npm run cli -- --help\` describes them.`);
}
const command = commands[name]!;
let parsed: ReturnType<typeof parseArgs>;
try {
  parsed = parseArgs({
    args: argv.slice(name.split(" ").length),
    options: Object.fromEntries(
      Object.entries({ ...command.options, json: commonOptions.json! }).map(([option, declared]) => [option, { type: declared.type }]),
    ),
    allowPositionals: true,
    strict: true,
  });
} catch (error) {
  fail(2, "usage", `${(error as Error).message}\nusage: ${usage(name, command)}`);
}

/** Reads the settings, starts (or reaches) the database, runs the command on it, and stops the database again. */
async function runOnDatabase(command: Command, flags: Flags, args: string[]): Promise<Output> {
  const { env } = await import("@/server/env").catch((error: Error) => fail(1, "configuration", error.message));
  // A connection that dies under postgres.js must not end a long command (`simulate --live`) with a TypeError.
  // (After the settings: its log reads them, and a bad one is reported above as such.)
  (await import("@/server/runtime/driver-faults")).surviveDeadConnections();
  const { createDatabase, sessionLimits } = await import("@/db/client");
  const { createDomainContext } = await import("@/server/domain/context");
  const { databaseClock } = await import("@/server/domain/database-clock");
  const { prepareDatabase } = await import("@/server/runtime/prepare");
  const database = await prepareDatabase(env).catch((error: Error) => fail(1, "database", error.message));
  const handle = createDatabase(database.url, { max: 4, limits: sessionLimits.cli });
  // A resend is due at the database's time, which the workers claim by, whatever this host's clock says.
  const clock = databaseClock(handle.sql);
  try {
    await clock.ready;
    const context = { ctx: createDomainContext(handle.db, { clock }), sql: handle.sql, webhookAddresses: { allowTargets: env.WEBHOOK_ALLOW_TARGETS } };
    return await command.run(context, flags, args);
  } finally {
    clock.stop();
    await handle.close();
    await database.stop();
  }
}

/** The error's code and message as printed; a refusal (ours or the API's) is expected, anything else is also logged in full. */
function described(error: unknown): { kind: string; message: string; expected: boolean } {
  if (error instanceof UsageError) return { kind: "usage", message: `${error.message}\nusage: ${usage(name!, command)}`, expected: true };
  if (error instanceof DomainError) return { kind: error.code, message: error.message, expected: true };
  if (error instanceof ListenError) return { kind: error.code, message: error.message, expected: true };
  if (error instanceof ApiError) return { kind: error.error, message: explainApiError(error), expected: true };
  if (error instanceof MissingSetting) return { kind: "configuration", message: error.message, expected: true };
  const unavailable = databaseFailure(error);
  if (unavailable) return { ...unavailable, expected: true };
  return { kind: "internal", message: (error as Error).message, expected: false };
}

let exitCode = 0;
try {
  const flags = parsed.values as Flags;
  const output = "standalone" in command ? await command.run(flags, parsed.positionals) : await runOnDatabase(command, flags, parsed.positionals);
  process.stdout.write(json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  const { kind, message, expected } = described(error);
  process.stderr.write(json ? `${JSON.stringify({ error: { code: kind, message } })}\n` : `error: ${message}\n`);
  if (!expected) console.error(error);
}
process.exit(exitCode);
