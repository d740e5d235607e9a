/**
 * Writes src/openapi-types.ts from a served API description:
 *
 *   npm run client:generate [-- http://localhost:3000/v1/openapi.json]
 *
 * `tests/client/generated-types.test.ts` renders the running server's document
 * with the same function and fails when the committed file differs, so the
 * output must depend on nothing but what the types describe: examples are
 * dropped (they may carry the serving host's address and only feed comments),
 * and the text goes through the repository's formatter.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import openapiTS, { astToString } from "openapi-typescript";

export const typesFile = new URL("../src/openapi-types.ts", import.meta.url);

const header = `/**
 * The Interview API's types, generated from /v1/openapi.json by openapi-typescript.
 * Do not edit: \`npm run client:generate\` writes this file again.
 */
`;

/** Examples sit beside the schemas they illustrate; a property that happens to be named "example" is left alone. */
function withoutExamples(node: unknown, insideProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutExamples(item));
  if (typeof node !== "object" || node === null) return node;
  const kept = Object.entries(node).filter(([key]) => insideProperties || (key !== "example" && key !== "examples"));
  return Object.fromEntries(kept.map(([key, value]) => [key, withoutExamples(value, !insideProperties && key === "properties")]));
}

function formatted(source: string): string {
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  const result = spawnSync(process.execPath, [biome, "format", `--stdin-file-path=${typesFile.pathname}`], { input: source, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`biome could not format the generated types:\n${result.stderr}`);
  return result.stdout;
}

export async function renderClientTypes(document: object): Promise<string> {
  const ast = await openapiTS(withoutExamples(document) as Parameters<typeof openapiTS>[0], { silent: true });
  return formatted(`${header}\n${astToString(ast)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = process.argv[2] ?? "http://localhost:3000/v1/openapi.json";
  const response = await fetch(source).catch(() => null);
  if (!response?.ok) {
    console.error(
      `Could not read ${source} (${response ? `HTTP ${response.status}` : "not reachable"}): start the app (npm run dev) or pass the document's address.`,
    );
    process.exit(1);
  }
  writeFileSync(typesFile, await renderClientTypes(await response.json()));
  console.log(`Wrote ${typesFile.pathname}`);
}
