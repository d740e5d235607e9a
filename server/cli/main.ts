/**
 * `npm run cli -- <command> [--json]`. With --json, stdout carries exactly one
 * JSON object; errors go to stderr with a non-zero exit (1: refused, 2: usage).
 * `help`, `-h` and `--help` print help on stdout, before any database starts.
 */
import { parseArgs } from "node:util";
import { type Flags, UsageError } from "./arguments";
import { commands } from "./commands";
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

const { env } = await import("@/server/env").catch((error: Error) => fail(1, "configuration", error.message));
const { createDatabase } = await import("@/db/client");
const { createDomainContext } = await import("@/server/domain/context");
const { DomainError } = await import("@/server/domain/errors");
const { prepareDatabase } = await import("@/server/runtime/prepare");

const database = await prepareDatabase(env).catch((error: Error) => fail(1, "database", error.message));
const handle = createDatabase(database.url, { max: 4 });
let exitCode = 0;
try {
  const context = { ctx: createDomainContext(handle.db), sql: handle.sql, webhookAddresses: { allowTargets: env.WEBHOOK_ALLOW_TARGETS } };
  const output = await command.run(context, parsed.values as Flags, parsed.positionals);
  process.stdout.write(json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  const kind = error instanceof UsageError ? "usage" : error instanceof DomainError ? error.code : "internal";
  const message = error instanceof UsageError ? `${error.message}\nusage: ${usage(name, command)}` : (error as Error).message;
  process.stderr.write(json ? `${JSON.stringify({ error: { code: kind, message } })}\n` : `error: ${message}\n`);
  if (!(error instanceof UsageError || error instanceof DomainError)) console.error(error);
} finally {
  await handle.close();
  await database.stop();
}
process.exit(exitCode);
