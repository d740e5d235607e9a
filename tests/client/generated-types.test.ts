/** The client's committed types are what the running server's /v1/openapi.json generates; `npm run client:generate` refreshes them. */
import { readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { renderClientTypes, typesFile } from "@/clients/typescript/scripts/generate-types";
import { useTestDatabase } from "../support/database";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
// Fetched once: a second request could reuse the kept-alive connection just as the server closes it, after the slow first test.
let document: object;
beforeAll(async () => {
  document = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as object;
});

it("match the served API description", async () => {
  const generated = await renderClientTypes(document);
  expect(generated === readFileSync(typesFile, "utf8"), "clients/typescript/src/openapi-types.ts is stale: run `npm run client:generate`").toBe(true);
});

it("do not depend on the address the document is served from", async () => {
  const elsewhere = JSON.parse(JSON.stringify(document).replaceAll(server.baseUrl, "https://api.example.com"));
  expect(await renderClientTypes(elsewhere)).toBe(await renderClientTypes(document));
});
