/**
 * `interview-api <command>`, this package's own command line. Its one command
 * is `listen`; exit codes follow the repository's CLI: 2 for a usage error,
 * 1 when refused or failed.
 */
import { parseArgs } from "node:util";
import { ApiError, explainApiError } from "./api-error.js";
import { ListenError, listenCommand, listenOptions } from "./listen.js";

const commonOptions = {
  json: { type: "boolean", description: "print one JSON object per line on stdout (the start, each event, the summary)" },
  help: { type: "boolean", description: "print this help" },
} as const;

type Declared = { value?: string; required?: boolean; description: string };
const declared = Object.entries<Declared>({ ...listenOptions, ...commonOptions });
const spelled = (name: string, option: Declared) => (option.value ? `--${name} ${option.value}` : `--${name}`);

const usage = `interview-api listen ${declared
  .filter(([name]) => name !== "help")
  .map(([name, option]) => (option.required ? spelled(name, option) : `[${spelled(name, option)}]`))
  .join(" ")}`;

function help(): string {
  const options = declared.map(([name, option]) => {
    const shown = name === "help" ? "-h, --help" : spelled(name, option);
    return `  ${shown.padEnd(22)}${option.description}${option.required ? " (required)" : ""}`;
  });
  return [
    `Usage: ${usage}`,
    "",
    "Follows the API's event history and POSTs each event, signed like a webhook delivery, to a local address, until Ctrl-C.",
    "",
    "Options:",
    ...options,
    "",
  ].join("\n");
}

function fail(code: number, json: boolean, kind: string, message: string): never {
  process.stderr.write(json ? `${JSON.stringify({ error: { code: kind, message } })}\n` : `error: ${message}\n`);
  process.exit(code);
}

const [command, ...rest] = process.argv.slice(2);
const json = rest.includes("--json");
if (command === undefined || command === "help" || command === "--help" || command === "-h" || rest.includes("--help") || rest.includes("-h")) {
  process.stdout.write(help());
  process.exit(0);
}
if (command !== "listen") fail(2, json, "usage", `unknown command "${command}"\nusage: ${usage}`);

try {
  const { values } = parseArgs({
    args: rest,
    options: Object.fromEntries(Object.entries({ ...listenOptions, ...commonOptions }).map(([name, option]) => [name, { type: option.type }])),
    strict: true,
  });
  const output = await listenCommand(values, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
} catch (error) {
  if ((error instanceof ListenError && error.code === "usage") || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    fail(2, json, "usage", `${(error as Error).message}\nusage: ${usage}`);
  }
  if (error instanceof ListenError) fail(1, json, error.code, error.message);
  if (error instanceof ApiError) fail(1, json, error.error, explainApiError(error));
  fail(1, json, "internal", (error as Error).message);
}
