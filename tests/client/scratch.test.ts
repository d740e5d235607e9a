import { writeFileSync } from "node:fs";
import { it } from "vitest";
import { useTestDatabase } from "../support/database";
import { useTestServer } from "../support/server";
const test = useTestDatabase();
const server = useTestServer(test);
it("dumps", async () => {
  writeFileSync("/tmp/openapi.json", await (await fetch(`${server.baseUrl}/v1/openapi.json`)).text());
});
