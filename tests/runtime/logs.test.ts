/**
 * The logs an operator reads, from the real web server and the real worker
 * process (both at LOG_LEVEL=debug, so that every line is written): an admin
 * signs in, creates an API key and a webhook with a custom header, reveals
 * the header and reveals and rotates its secret
 * over HTTP; the key reads the API (and a wrong key is refused); events are
 * delivered, signed with both secrets, the first try refused. Afterwards:
 *
 * - no log line holds a webhook secret, a custom header's value, the API key,
 *   a signature value or an Authorization value, and none needed masking
 *   (nobody tried to log one);
 * - our lines are JSON; each API line carries the request's trace id (the
 *   one its answer sent as X-Trace-Id), each delivery line the event and
 *   message ids.
 */
import { expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { loadInterview } from "@/server/domain/interviews";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { signInOverHttp } from "../support/http-sign-in";
import { useProcessReceiver } from "../support/receiver";
import { callApi, type TestServer, useTestServer } from "../support/server";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();

const web = useTestServer(test, () => ({ LOG_LEVEL: "debug", WEBHOOK_ALLOW_TARGETS: delivery.receiver.target }));
const startWorker = useWorkerProcesses(() => ({
  DATABASE_URL: test.url,
  FILE_STORAGE_DIR: test.filesDir,
  WEBHOOK_ALLOW_TARGETS: delivery.receiver.target,
  WEBHOOK_CA_FILE: delivery.caFile,
  LOG_LEVEL: "debug",
}));

/** A settings mutation, as the pages send it. */
async function settings<T>(server: TestServer, cookie: string, procedure: string, input: unknown): Promise<T> {
  const response = await fetch(`${server.baseUrl}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.baseUrl, Cookie: cookie },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { result?: { data: T } };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.result!.data;
}

it("logs no secret, and ties every API line to its trace id and every delivery line to its event and message", { timeout: 120_000 }, async () => {
  const worker = await startWorker();
  const companyId = await makeCompany(test.ctx, "Logged");
  const password = "a long enough password";
  await createUser(test.ctx, { companyId, email: "admin@logged.example", name: "Admin", role: "admin", password });
  const interview = await makeInterview(test.ctx, companyId);
  const cookie = await signInOverHttp(web, "admin@logged.example", password);

  const { key } = await settings<{ key: string }>(web, cookie, "apiKeys.create", { name: "Logged key" });
  const headerValue = `hdr-${"7".repeat(24)}`;
  const created = await settings<{ id: string; secret: string }>(web, cookie, "webhooks.create", {
    url: delivery.receiver.url("/logged"),
    customHeaders: [{ name: "X-Api-Key", value: headerValue }],
  });
  await settings(web, cookie, "webhooks.revealHeaders", { id: created.id });
  const revealed = await settings<{ secret: string }>(web, cookie, "webhooks.revealSecret", { id: created.id });
  const rotated = await settings<{ secret: string }>(web, cookie, "webhooks.rotateSecret", { id: created.id });
  const secrets = [created.secret, revealed.secret, rotated.secret];
  expect(secrets.every((secret) => secret.startsWith("whsec_"))).toBe(true);
  expect(rotated.secret).not.toBe(created.secret);

  // The API, with the key, a wrong key and a key in the address; and one request that fails inside.
  const wrongKey = `ivk_${"9".repeat(32)}`;
  const traceIds: string[] = [];
  for (const [address, usedKey] of [
    ["/v1/me", key],
    ["/v1/candidates?limit=2", key],
    ["/v1/candidates/not-an-id", key],
    ["/v1/me", wrongKey],
    [`/v1/me?api_key=${key}`, undefined],
  ] as const) {
    const answer = await callApi(web, address, { key: usedKey });
    expect(answer.status).toBeLessThan(500);
    traceIds.push(answer.headers.get("x-trace-id")!);
  }

  // Three events; the receiver refuses the first try (its retry waits a minute), so only that one and nothing else arrives at first.
  delivery.receiver.answer(() => ({ status: 500, body: "not now" }));
  const candidate = await startCandidate(test.ctx, interview.id, { email: "logged@example.com" });
  await completeSteps(test.ctx, await loadInterview(test.ctx.db, interview.id), candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  test.clock.set(new Date());
  await submitAttempt(test.ctx, candidate.id);
  const [refused] = await delivery.receiver.waitFor(1);
  expect(refused!.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
  expect(refused!.headers["x-api-key"]).toBe(headerValue);
  await expect.poll(() => worker.output(), { timeout: 15_000 }).toContain('"message":"webhook delivery"');

  const signatureValues = delivery.receiver.received.flatMap((request) => [
    ...String(request.headers["webhook-signature"]).split(" "),
    ...String(request.headers["service-signature"])
      .split(",")
      .filter((part) => part.startsWith("v1=")),
  ]);
  expect(signatureValues.length).toBeGreaterThanOrEqual(4);
  const forbidden = [
    ...secrets,
    ...secrets.map((secret) => secret.slice("whsec_".length)),
    key,
    wrongKey,
    headerValue,
    `Bearer ${key}`,
    ...signatureValues,
    ...signatureValues.map((value) => value.replace(/^v1[,=]/, "")),
  ];

  const outputs = { web: web.logs(), worker: worker.output() };
  for (const [processName, output] of Object.entries(outputs)) {
    for (const value of forbidden) expect(output.includes(value), `${processName} logged ${value.slice(0, 12)}…`).toBe(false);
    expect(output, `${processName}: something tried to log a secret`).not.toContain("[redacted]");
    expect(output).not.toMatch(/whsec_[A-Za-z0-9+/]{8}/);
    expect(output).not.toMatch(/ivk_[1-9A-HJ-NP-Za-km-z]{20}/);
  }

  const ourLines = (output: string) =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const apiLines = ourLines(outputs.web).filter((line) => line.message === "API request");
  expect(apiLines.map((line) => line.traceId).sort()).toEqual([...traceIds].sort());
  expect(apiLines.map((line) => line.endpoint)).toContain("/v1/candidates/{id}");

  const deliveryLines = ourLines(outputs.worker).filter((line) => line.message === "webhook delivery");
  expect(deliveryLines.length).toBeGreaterThanOrEqual(1);
  for (const line of deliveryLines) {
    expect(line).toMatchObject({ eventId: expect.stringMatching(/^evt_/), messageId: expect.any(String), webhookId: created.id });
  }
  expect(deliveryLines[0]).toMatchObject({ eventId: refused!.headers["service-event-id"], outcome: "retry_scheduled", status: 500, errorClass: "http_status" });
});
