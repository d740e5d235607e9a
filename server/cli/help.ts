/** Usage lines and help, written from each command's own declaration so they cannot drift from what is parsed. */
import type { CommandDeclaration, Option } from "./arguments";

const invocation = "npm run cli --";

/** Every command accepts these; main.ts handles them. */
export const commonOptions: Record<string, Option> = {
  json: { type: "boolean", description: "print exactly one JSON object on stdout (progress and errors go to stderr)" },
  help: { type: "boolean", description: "print this help" },
};

const spelled = (name: string, option: Option) => (option.type === "string" ? `--${name} ${option.value}` : `--${name}`);

export function usage(name: string, command: CommandDeclaration): string {
  const options = Object.entries(command.options).map(([option, declared]) =>
    declared.required ? spelled(option, declared) : `[${spelled(option, declared)}]`,
  );
  return [name, command.argument, ...options, "[--json]"].filter(Boolean).join(" ");
}

function table(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join("\n");
}

export function commandHelp(name: string, command: CommandDeclaration): string {
  const json = { ...commonOptions.json!, description: command.jsonOutput ?? commonOptions.json!.description };
  const options = Object.entries({ ...command.options, ...commonOptions, json }).map(([option, declared]): [string, string] => [
    option === "help" ? "-h, --help" : spelled(option, declared),
    declared.required ? `${declared.description} (required)` : declared.description,
  ]);
  return `Usage: ${invocation} ${usage(name, command)}\n\n${command.summary}\n\nOptions:\n${table(options)}\n`;
}

/** The list of commands, or of one group's (`webhook`) when given. */
export function overview(commands: Record<string, CommandDeclaration>, group?: string): string {
  const listed = Object.entries(commands).filter(([name]) => !group || name.startsWith(`${group} `));
  return [
    `Usage: ${invocation} <command> [options] [--json]`,
    "",
    "Commands:",
    table(listed.map(([name, command]) => [name, command.summary])),
    "",
    `\`${invocation} <command> --help\` lists a command's options.`,
    'With --json, stdout carries exactly one JSON object; errors go to stderr as {"error":{"code","message"}}, with exit 1 when refused and 2 for a usage error.',
    "",
  ].join("\n");
}
