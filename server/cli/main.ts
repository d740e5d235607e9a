/**
 * `npm run cli -- <command> [--json]`. With --json, stdout carries exactly one
 * JSON object; errors go to stderr with a non-zero exit (1: refused, 2: usage).
 */
import { parseArgs } from "node:util";
import { type Flags, UsageError } from "./arguments";
import { commands } from "./commands";

const argv = process.argv.slice(2);
const json = argv.includes("--json");
const name = [`${argv[0]} ${argv[1]}`, argv[0]].find((candidate) => candidate && commands[candidate]);

function fail(code: number, kind: string, message: string): never {
  process.stderr.write(json ? `${JSON.stringify({ error: { code: kind, message } })}\n` : `error: ${message}\n`);
  process.exit(code);
}

if (!name) {
  const usage = Object.values(commands).map((command) => `  ${command.usage} [--json]`);
  fail(2, "usage", `unknown command "${argv.slice(0, 2).join(" ")}". Commands:\n${usage.join("\n")}`);
}
const command = commands[name]!;
let parsed: ReturnType<typeof parseArgs>;
try {
  parsed = parseArgs({
    args: argv.slice(name.split(" ").length),
    options: { ...command.options, json: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });
} catch (error) {
  fail(2, "usage", `${(error as Error).message}\nusage: ${command.usage} [--json]`);
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
  const output = await command.run({ ctx: createDomainContext(handle.db), sql: handle.sql }, parsed.values as Flags, parsed.positionals);
  process.stdout.write(json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  const kind = error instanceof UsageError ? "usage" : error instanceof DomainError ? error.code : "internal";
  const message = error instanceof UsageError ? `${error.message}\nusage: ${command.usage} [--json]` : (error as Error).message;
  process.stderr.write(json ? `${JSON.stringify({ error: { code: kind, message } })}\n` : `error: ${message}\n`);
  if (!(error instanceof UsageError || error instanceof DomainError)) console.error(error);
} finally {
  await handle.close();
  await database.stop();
}
process.exit(exitCode);
