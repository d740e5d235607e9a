/**
 * `npm run openapi:examples`
 *
 * Writes server/examples/openapi-examples.json, the examples of
 * /v1/openapi.json: for every endpoint its success and each error it
 * documents, for every webhook event type a message, and a value of each
 * response header. Every one is a real answer of the API's own handler
 * (server/api/http/v1-handler.ts, run in this process) to the demo company's
 * history (server/demo/seed.ts: `simulate` at its fixed seed), on an embedded
 * PostgreSQL of its own whatever DATABASE_URL says, so nothing is typed by
 * hand and nothing can drift from what the API sends.
 *
 * Ids come from a generator seeded like the history and the history ends at
 * today's midnight (UTC), so a run repeats the same data on the same day;
 * trace ids, envelope timestamps, cursors and download links are new on every
 * run. Run it after changing what the API answers and commit the file;
 * tests/api/openapi.test.ts checks every example against its schema.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrateDatabase } from "@/db/migrate";
import type { Example, OpenApiExamples } from "@/server/examples/openapi-examples";
import { startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { freePort } from "../support/ports";

/** The demo's seed (server/demo/seed.ts), for the ids too. */
const seed = 20261121;
/** Where the examples' links point: an address of the kind a deployment has, not this run's. */
const appUrl = "https://interviews.example.com";
const output = fileURLToPath(new URL("../../server/examples/openapi-examples.json", import.meta.url));
const log = (line: string) => process.stdout.write(`${line}\n`);

const folder = mkdtempSync(path.join(tmpdir(), "interview-api-examples-"));
const database = await startEmbeddedPostgres({ directory: path.join(folder, "postgres"), port: await freePort(), database: "examples" });
await migrateDatabase(database.url);

// The product reads its settings once, when server/env.ts is first imported:
// set them, then load the product (as server/runtime/main.ts does).
Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_URL: database.url,
  APP_URL: appUrl,
  APP_SECRET: randomBytes(32).toString("base64url"),
  NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  DATA_DIR: folder,
  FILE_STORAGE_DIR: path.join(folder, "files"),
});
const { eventTypes } = await import("@/db/schema");
const { createDatabase } = await import("@/db/client");
const { appDatabase } = await import("@/server/app-database");
const { serveV1 } = await import("@/server/api/http/v1-handler");
const { rateLimitHeaderSchemas } = await import("@/server/api/rate-limit-headers");
const { setCompanyRateLimits, setCompanySuspended } = await import("@/server/domain/accounts");
const { createDomainContext } = await import("@/server/domain/context");
const { createRandom } = await import("@/server/demo/random");
const { seedDemo } = await import("@/server/demo/seed");
const { createIdGenerator } = await import("@/server/ids");
const { deliveryHeaders } = await import("@/server/webhooks/delivery/delivery-headers");
const { userAgent } = await import("@/server/webhooks/delivery/attempt");
const { generateSecret } = await import("@/server/webhooks/delivery/secrets");

const historyEnd = new Date(new Date().setUTCHours(0, 0, 0, 0));
const handle = createDatabase(database.url);
const ctx = createDomainContext(handle.db, { clock: { now: () => historyEnd }, newId: createIdGenerator(createRandom(seed).bytes) });

type Answer = { status: number; body: any };

const examples: OpenApiExamples = { responses: {}, headers: {}, webhooks: {} };
const responseHeaders = ["X-Trace-Id", "Retry-After", ...Object.keys(rateLimitHeaderSchemas)];

/** The API's own handler on a loopback server of this script's, as the web server mounts it. */
const apiServer = createServer((request, response) => void serveV1(request, response));
await new Promise<void>((listening) => apiServer.listen(0, "127.0.0.1", listening));
const apiOrigin = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;

async function call(url: string, key: string | null): Promise<Answer> {
  const response = await fetch(`${apiOrigin}/v1${url}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  for (const name of responseHeaders) {
    const value = response.headers.get(name);
    if (value !== null) examples.headers[name] ??= value;
  }
  return { status: response.status, body: await response.json() };
}

let stopped = false;
async function stopDatabase() {
  if (stopped) return;
  stopped = true;
  await handle.close();
  await database.stop();
}

/** Calls the API and keeps its answer as an example of `template`'s response with this status; any other status stops the run. */
async function example(template: string, status: number, name: string, summary: string, request: { url: string; key: string | null; note?: string }) {
  const answer = await call(request.url, request.key);
  if (answer.status !== status) throw new Error(`GET /v1${request.url}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  const description = `\`GET /v1${request.url}\`${request.note ? ` ${request.note}` : ""}`;
  const kept: Example = { summary, description, value: answer.body };
  const responses = examples.responses[template];
  examples.responses[template] = { ...responses, [status]: { ...responses?.[status], [name]: kept } };
}

try {
  const seeded = await seedDemo(ctx);
  if (!seeded.created) throw new Error("The examples' database already had a demo company");
  const key = seeded.api_key;
  log(`Demo history seeded (seed ${seed}, ending ${historyEnd.toISOString()})`);

  // The candidates the examples show, found through the API itself.
  const everyone: any[] = [];
  for (let cursor: string | null = ""; cursor !== null; ) {
    const page: Answer = await call(`/candidates?state=all&limit=25${cursor ? `&cursor=${cursor}` : ""}`, key);
    everyone.push(...page.body.data.candidates);
    cursor = page.body.data.next_cursor;
  }
  const complete = everyone.find(
    (candidate) => candidate.result.state === "complete" && candidate.ai_interview?.recording.status === "ready" && candidate.documents.length > 0,
  );
  const recordingPending = everyone.find((candidate) => candidate.ai_interview?.recording.status === "processing");
  if (!complete || !recordingPending) throw new Error("The demo history lacks a complete candidate or one whose recording is processing");

  const unknown = { interview: ctx.newId("interview"), candidate: ctx.newId("candidate"), file: ctx.newId("file") };
  const endpoints: Array<{ template: string; url: string; summary: string; unknownUrl?: string }> = [
    { template: "/me", url: "/me", summary: "The key's company and the key" },
    { template: "/interviews", url: "/interviews?limit=2", summary: "A page of interviews, newest first" },
    {
      template: "/interviews/{id}",
      url: `/interviews/${complete.interview.id}`,
      summary: "An interview and its steps",
      unknownUrl: `/interviews/${unknown.interview}`,
    },
    { template: "/candidates", url: "/candidates?limit=2", summary: "The most recently submitted candidates" },
    {
      template: "/candidates/{id}",
      url: `/candidates/${complete.id}`,
      summary: "A candidate with a complete result",
      unknownUrl: `/candidates/${unknown.candidate}`,
    },
    {
      template: "/candidates/{id}/transcript",
      url: `/candidates/${complete.id}/transcript`,
      summary: "The AI interview's questions and answers",
      unknownUrl: `/candidates/${unknown.candidate}/transcript`,
    },
    {
      template: "/candidates/{id}/recording",
      url: `/candidates/${complete.id}/recording`,
      summary: "A download link for a ready recording",
      unknownUrl: `/candidates/${unknown.candidate}/recording`,
    },
    { template: "/events", url: "/events?limit=2", summary: "The oldest events of the history" },
    {
      template: "/files/{id}",
      url: `/files/${complete.documents[0].id}`,
      summary: "A download link for a candidate's document",
      unknownUrl: `/files/${unknown.file}`,
    },
  ];
  const invalidQueries: Record<string, string> = {
    "/interviews": "/interviews?status=archived&limit=0",
    "/candidates": "/candidates?state=finished&submitted_after=yesterday",
    "/events": "/events?type=candidate.created&limit=100",
  };

  for (const endpoint of endpoints) {
    await example(endpoint.template, 200, "success", endpoint.summary, { url: endpoint.url, key });
    await example(endpoint.template, 401, "missing_key", "No API key", { url: endpoint.url, key: null, note: "without `Authorization`" });
    if (endpoint.unknownUrl) await example(endpoint.template, 404, "unknown_id", "No such id in the caller's company", { url: endpoint.unknownUrl, key });
    const invalid = invalidQueries[endpoint.template];
    if (invalid) await example(endpoint.template, 422, "invalid_query", "Invalid query parameters, all listed", { url: invalid, key });
  }
  await example("/candidates/{id}/recording", 404, "recording_processing", "The recording has not arrived yet", {
    url: `/candidates/${recordingPending.id}/recording`,
    key,
  });

  // A webhook message is the event as GET /v1/events shows it, with the headers the worker adds, signed with a secret made for this run only.
  for (const type of eventTypes) {
    const [event] = (await call(`/events?type=${type}&limit=1`, key)).body.data.events;
    const { "Content-Type": _json, ...headers } = deliveryHeaders({
      eventId: event.id,
      eventType: type,
      attempt: 1,
      body: JSON.stringify(event),
      secrets: [generateSecret()],
      timestamp: Math.floor(historyEnd.getTime() / 1000),
      userAgent: userAgent(),
    });
    examples.webhooks[type] = {
      summary: `The demo history's first ${type}`,
      description: `The event as \`GET /v1/events?type=${type}&limit=1\` returns it, sent as a first try.`,
      headers,
      body: event,
    };
  }

  /** The same failure on every endpoint, with the key. */
  const exampleOfEach = async (status: number, name: string, summary: string, note: string) => {
    for (const endpoint of endpoints) await example(endpoint.template, status, name, summary, { url: endpoint.url, key, note });
  };

  // With one request a minute per key, the first takes what is left and the others wait.
  await setCompanyRateLimits(ctx, seeded.company_id, { perKey: 1, perCompany: null });
  await call("/me", key);
  await exampleOfEach(429, "rate_limited", "Over the rate limit", "over the key's limit");
  await setCompanySuspended(ctx, seeded.company_id, true);
  await exampleOfEach(403, "suspended", "The company account is suspended", "for a suspended company");

  // What a fault of ours looks like: the admission's function is missing, as a broken migration would leave it.
  await appDatabase().sql`alter function api_admit rename to api_admit_missing`;
  log("api_admit renamed for the 500 examples: the API logs these requests' errors below.");
  await exampleOfEach(500, "internal_error", "A fault on the service's side", "after a fault of the service's");
  await appDatabase().sql`alter function api_admit_missing rename to api_admit`;

  // The database gone: 503, retry later.
  await stopDatabase();
  log("Database stopped for the 503 examples.");
  await exampleOfEach(503, "external_service_error", "The database is unavailable", "while the database is down");

  writeFileSync(output, `${JSON.stringify(examples, null, 2)}\n`);
  log(`Wrote ${path.relative(process.cwd(), output)}`);
} finally {
  apiServer.close();
  await appDatabase().close();
  await stopDatabase();
  rmSync(folder, { recursive: true, force: true });
}
