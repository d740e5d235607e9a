/** The client package against the real server: every endpoint, the paging iterators, typed errors and 429 retries. */

import { ApiError, createInterviewClient } from "@interview-api/client";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey, setCompanyRateLimits, setCompanySuspended } from "@/server/domain/accounts";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
let acme: ApiCompany;

/** A client whose requests' paths and answers' statuses the test can read. */
function clientFor(apiKey: string, options: Parameters<typeof createInterviewClient>[0]["retry"] = {}) {
  const sent: Array<{ path: string; status: number; at: number }> = [];
  const client = createInterviewClient({
    baseUrl: `${server.baseUrl}/v1`,
    apiKey,
    retry: options,
    fetch: async (request) => {
      const response = await fetch(request);
      const url = new URL(request.url);
      sent.push({ path: `${url.pathname}${url.search}`, status: response.status, at: performance.now() });
      return response;
    },
  });
  return Object.assign(client, { sent });
}

/** Requests of one key at once, outside the client, until the key's bucket is empty. */
async function drain(apiKey: string, count: number) {
  const statuses = await Promise.all(
    Array.from({ length: count }, async () => (await fetch(`${server.baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${apiKey}` } })).status),
  );
  expect(statuses).toContain(429);
}

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail("expected a refusal"),
    (error: unknown) => error as ApiError,
  );

beforeAll(async () => {
  acme = await apiCompany(test.ctx, "Acme");
  for (let index = 0; index < 5; index++) await submitCandidate(test.ctx, acme.interview, { email: `more-${index}@acme.example` });
  await makeInterview(test.ctx, acme.companyId);
});

describe("the client", () => {
  it("reads every endpoint, unwrapping the envelope", async () => {
    const client = clientFor(acme.key);
    expect(await client.me()).toEqual({ company: { id: acme.companyId, name: "Acme" }, api_key: { id: acme.keyId, name: "Tests" } });

    const interviews = await client.interviews.page({ limit: 1 });
    expect(interviews.interviews).toHaveLength(1);
    expect(interviews.next_cursor).toEqual(expect.any(String));
    const interview = await client.interviews.get(acme.interview.id);
    expect(interview).toMatchObject({ id: acme.interview.id, title: "Support Specialist", status: "active" });
    expect(interview.steps.form?.questions).toHaveLength(3);

    const candidates = await client.candidates.page({ state: "in_progress" });
    expect(candidates).toEqual({ candidates: [expect.objectContaining({ id: acme.inProgress.id, status: "in_progress" })], next_cursor: null });
    const candidate = await client.candidates.get(acme.submitted.id);
    expect(candidate).toMatchObject({ id: acme.submitted.id, result: { state: "complete", score: 75 }, ai_interview: { recording: { status: "ready" } } });

    expect(await client.candidates.transcript(acme.submitted.id)).toEqual([
      { index: 0, question: "Tell me about you.", answer: "I like people.", speaking_seconds: 40 },
    ]);
    const recording = await client.candidates.recording(acme.submitted.id);
    expect(recording).toMatchObject({ status: "ready", content_type: "audio/wav", duration_seconds: 300 });
    expect((await fetch(recording.download_url)).status).toBe(200);
    const file = await client.files.get(candidate.documents[0]!.id);
    expect(file).toMatchObject({ id: candidate.documents[0]!.id, name: "cv.pdf", content_type: "application/pdf" });
    expect(await (await fetch(file.download_url)).text()).toBe("%PDF-1.4");

    const events = await client.events.page({ type: "candidate.submitted" });
    expect(events.events.map((event) => event.candidate.id)).toContain(acme.submitted.id);
    expect(events).toMatchObject({ has_more: false, next_cursor: expect.any(String) });
    expect(client.sent.map((request) => request.status)).toEqual(Array(client.sent.length).fill(200));
  });

  it("follows next_cursor through every page with list()", async () => {
    const client = clientFor(acme.key);
    const everyone = (await client.candidates.page({ state: "all", limit: 25 })).candidates.map((candidate) => candidate.id);
    expect(everyone).toHaveLength(7);
    client.sent.length = 0;

    const listed: string[] = [];
    for await (const candidate of client.candidates.list({ state: "all", limit: 2 })) listed.push(candidate.id);
    expect(listed).toEqual(everyone);
    expect(client.sent).toHaveLength(4);
    expect(client.sent.slice(1).every((request) => request.path.includes("cursor="))).toBe(true);

    const titles: string[] = [];
    for await (const interview of client.interviews.list({ limit: 1 })) titles.push(interview.id);
    expect(titles).toHaveLength(2);
    expect(new Set(titles).size).toBe(2);

    let submittedOnly = 0;
    for await (const candidate of client.candidates.list({ interview_id: acme.interview.id, status: "needs_review,passed", limit: 25 })) {
      expect(candidate.submitted_at).not.toBeNull();
      submittedOnly++;
    }
    expect(submittedOnly).toBe(6);
  });

  it("throws ApiError with the envelope's status, code, message, trace_id and problems", async () => {
    const client = clientFor(acme.key);
    const notFound = await refusal(client.candidates.get("cand_nope"));
    expect(notFound).toBeInstanceOf(ApiError);
    expect(notFound).toMatchObject({ status: 404, error: "not_found", problems: [], details: null });
    expect(notFound.message).toEqual(expect.any(String));
    expect(notFound.trace_id).toBe(notFound.headers.get("x-trace-id"));

    const noRecording = await refusal(client.candidates.recording(acme.inProgress.id));
    expect(noRecording).toMatchObject({ status: 404, error: "not_found", details: { recording_status: null } });

    const invalid = await refusal(client.candidates.page({ limit: 99, state: "finished" as never }));
    expect(invalid).toMatchObject({ status: 422, error: "validation_error" });
    expect(invalid.problems.map((problem) => [problem.parameter, problem.code]).sort()).toEqual([
      ["limit", "out_of_range"],
      ["state", "invalid_value"],
    ]);

    const unknownKey = await refusal(clientFor(`ivk_${"1".repeat(32)}`).me());
    expect(unknownKey).toMatchObject({ status: 401, error: "auth_error", problems: [] });
    expect(unknownKey.trace_id).toMatch(/\S/);

    const suspended = await makeCompany(test.ctx, "Suspended");
    const { key } = await createApiKey(test.ctx, { companyId: suspended, name: "k" });
    await setCompanySuspended(test.ctx, suspended, true);
    expect(await refusal(clientFor(key).me())).toMatchObject({ status: 403, error: "permission_denied" });
  });
});

describe("rate limits", () => {
  async function limitedKey(name: string, perKey: number) {
    const companyId = await makeCompany(test.ctx, name);
    await setCompanyRateLimits(test.ctx, companyId, { perKey, perCompany: null });
    return (await createApiKey(test.ctx, { companyId, name: "k" })).key;
  }

  it("waits the Retry-After of a 429, then sends the request again", async () => {
    // 60 a minute: one request fits again every second, so Retry-After is 1.
    const key = await limitedKey("Busy", 60);
    await drain(key, 75);
    const client = clientFor(key);
    expect(await client.me()).toMatchObject({ company: { name: "Busy" } });
    const [refused, admitted] = client.sent;
    expect([refused?.status, admitted?.status]).toEqual([429, 200]);
    expect(admitted!.at - refused!.at).toBeGreaterThanOrEqual(950);
  });

  it("gives up with the 429 when retries are off or Retry-After is longer than allowed", async () => {
    const key = await limitedKey("Slow", 2);
    await drain(key, 5);
    const started = performance.now();
    const tooLong = await refusal(clientFor(key, { maxWaitSeconds: 5 }).me());
    expect(tooLong).toMatchObject({ status: 429, error: "rate_limited" });
    expect(Number(tooLong.headers.get("retry-after"))).toBeGreaterThan(5);
    expect(performance.now() - started).toBeLessThan(2_000);

    const once = clientFor(key, { maxRetries: 0 });
    await expect(once.me()).rejects.toMatchObject({ status: 429, error: "rate_limited" });
    expect(once.sent).toHaveLength(1);
  });
});
