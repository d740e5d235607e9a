/**
 * A few hundred random requests per /v1 endpoint, with a fresh seed each run
 * (FUZZ_SEED repeats one); `npm run fuzz` runs many more. See fuzz/api-fuzz.ts.
 */
import { beforeAll, describe, it } from "vitest";
import { useTestDatabase } from "../support/database";
import { useTestServer } from "../support/server";
import { type FuzzCompany, type FuzzEndpoint, fuzzCompany, fuzzEndpoint, fuzzEndpoints, newSeed } from "./fuzz/api-fuzz";

const runs = 250;
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : newSeed();
const test = useTestDatabase();
// Limits high enough that requests reach validation; a 429 would still be a valid answer.
const server = useTestServer(test, { RATE_LIMIT_PER_KEY: "1000000", RATE_LIMIT_PER_COMPANY: "1000000" });
let company: FuzzCompany;
let endpoints: FuzzEndpoint[];

beforeAll(async () => {
  company = await fuzzCompany(test.ctx, server.baseUrl);
  endpoints = await fuzzEndpoints(server.baseUrl);
  console.log(`API fuzz: seed ${seed} (FUZZ_SEED=${seed} repeats this run), ${runs} cases per endpoint`);
});

describe("random requests to every endpoint", () => {
  it("are answered with the spec's envelope and a 2xx or 4xx status, never a 5xx", async () => {
    for (const endpoint of endpoints) await fuzzEndpoint(server.baseUrl, endpoint, company, { runs, seed });
  }, 120_000);
});
