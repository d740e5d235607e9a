/**
 * `next dev` (Turbopack) watches every folder the build has read. Tailwind's
 * automatic source detection read every folder of the project that .gitignore
 * does not list, and reported them all as dependencies of the stylesheet; with
 * the data folder among them, each write of PostgreSQL or the file storage
 * recompiled the CSS, and each recompile made open pages refetch, which wrote
 * again. Nothing under a data folder may reach the build, whatever DATA_DIR is.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import tailwind from "@tailwindcss/postcss";
import postcss from "postcss";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const project = path.resolve(import.meta.dirname, "../..");
// Not in .gitignore, as a DATA_DIR set to any folder of the project would be.
const dataDir = path.join(project, `data-watch-probe-${process.pid}`);

beforeAll(() => {
  mkdirSync(path.join(dataDir, "postgres", "base"), { recursive: true });
  writeFileSync(path.join(dataDir, "postgres", "base", "1259"), "bg-red-500");
  writeFileSync(path.join(dataDir, "probe.ts"), "export const probe = 1;\n");
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const inDataDir = (file: string) => path.resolve(project, file).startsWith(`${dataDir}${path.sep}`) || path.resolve(project, file) === dataDir;

describe("the data folder is never watched by next dev", () => {
  it("is not a dependency of the stylesheet", async () => {
    const from = path.join(project, "app", "globals.css");
    const result = await postcss([tailwind({ base: project })]).process(readFileSync(from, "utf8"), { from });
    const watched = result.messages.flatMap((message) =>
      message.type === "dir-dependency" ? [message.dir as string] : message.type === "dependency" ? [message.file as string] : [],
    );
    expect(watched.filter(inDataDir)).toEqual([]);
    expect(watched).toContain(path.join(project, "app"));
  });

  it("is not part of the TypeScript project", () => {
    const config = ts.getParsedCommandLineOfConfigFile(path.join(project, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    expect(config.fileNames.filter(inDataDir)).toEqual([]);
    expect(config.fileNames).toContain(path.join(project, "server", "env.ts"));
  });
});
