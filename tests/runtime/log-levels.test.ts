/**
 * LOG_LEVEL takes the levels operators set (`error`, `warn`, `info`,
 * `debug`) and writes only lines at or above it: a process started with
 * `LOG_LEVEL=warn` runs, and writes its warnings and errors only.
 */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

function linesLoggedAt(level: string) {
  const script = `import { log } from "@/server/log"; for (const level of ["debug", "info", "warn", "error"]) log[level]("a " + level + " line");`;
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, LOG_LEVEL: level },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { level: string }).level);
}

it.each([
  ["error", ["error"]],
  ["warn", ["warn", "error"]],
  ["info", ["info", "warn", "error"]],
  ["debug", ["debug", "info", "warn", "error"]],
])("LOG_LEVEL=%s writes %j", (level, written) => {
  expect(linesLoggedAt(level)).toEqual(written);
});
