/** Envelopes and shapes, authentication, tenant isolation, methods and validation of /v1. */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { files } from "@/db/schema";
import { createApiKey, revokeApiKey, setCompanySuspended } from "@/server/domain/accounts";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { callApi, rawExchange, useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
let acme: ApiCompany;
let globex: ApiCompany;
let acmeEvent: string;
let acmeDocument: string;

beforeAll(async () => {
  acme = await apiCompany(test.ctx, "Acme");
  globex = await apiCompany(test.ctx, "Globex");
  acmeEvent = (await callApi(server, "/v1/events", { key: acme.key })).body.data.events[0].id;
  acmeDocument = (await test.ctx.db.select().from(files).where(eq(files.candidateId, acme.submitted.id))).find((f) => f.kind === "document")!.id;
});

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const candidateKeys = [
  "id",
  "attempt",
  "name",
  "email",
  "phone",
  "interview",
  "status",
  "status_label",
  "rejection_reason",
  "started_at",
  "submitted_at",
  "result",
  "ai_interview",
  "answers",
  "documents",
  "dashboard_url",
];
const resultKeys = [
  "state",
  "incomplete_reason",
  "score",
  "recommendation",
  "recommendation_label",
  "pass_mark",
  "summary",
  "strengths",
  "areas_to_improve",
  "skills",
  "highlights",
  "ended_for_conduct",
];
const interviewKeys = ["id", "title", "status", "language", "access_mode", "pass_mark", "candidate_link", "created_at", "published_at", "closed_at", "steps"];

describe("response shapes", () => {
  it("wraps success in the envelope with an integer timestamp and a trace id also sent as a header", async () => {
    const response = await callApi(server, "/v1/me", { key: acme.key });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["data", "success", "timestamp", "trace_id"]);
    expect(response.body).toMatchObject({ success: true, data: { company: { id: acme.companyId, name: "Acme" }, api_key: { id: acme.keyId, name: "Tests" } } });
    expect(Number.isInteger(response.body.timestamp)).toBe(true);
    expect(Math.abs(response.body.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(response.headers.get("x-trace-id")).toBe(response.body.trace_id);
  });

  it("gives every field of every object, with null for missing values", async () => {
    const { body } = await callApi(server, `/v1/candidates/${acme.inProgress.id}`, { key: acme.key });
    const candidate = body.data.candidate;
    expect(Object.keys(candidate).sort()).toEqual([...candidateKeys].sort());
    expect(Object.keys(candidate.result).sort()).toEqual([...resultKeys].sort());
    expect(candidate).toMatchObject({ phone: null, submitted_at: null, ai_interview: null, rejection_reason: null, answers: {}, documents: [] });
    expect(candidate.result).toMatchObject({ state: "waiting", score: null, recommendation: null, recommendation_label: null, summary: null });
    expect(candidate.started_at).toMatch(rfc3339);

    const done = (await callApi(server, `/v1/candidates/${acme.submitted.id}`, { key: acme.key })).body.data.candidate;
    expect(Object.keys(done.ai_interview).sort()).toEqual([
      "duration_seconds",
      "language",
      "mode",
      "questions_answered",
      "questions_asked",
      "recording",
      "transcript_url",
    ]);
    expect(Object.keys(done.documents[0]).sort()).toEqual(["content_type", "file_name", "id", "label", "size_bytes", "url"]);
    expect(done.submitted_at).toMatch(rfc3339);
    expect(done.ai_interview.recording).toEqual({ status: "ready", url: `${server.baseUrl}/v1/candidates/${acme.submitted.id}/recording` });
    const questionId = acme.interview.questions[0]!.id;
    expect(done.answers[questionId]).toEqual({ question: "Why support?", answer: "Because." });

    const interview = (await callApi(server, `/v1/interviews/${acme.interview.id}`, { key: acme.key })).body.data.interview;
    expect(Object.keys(interview).sort()).toEqual([...interviewKeys].sort());
    expect(interview.closed_at).toBeNull();
    expect(interview.steps.form.questions.map((q: { id: string }) => q.id)).toEqual(acme.interview.questions.map((q) => q.id));
    expect(interview.steps.form.questions[0]).toEqual({ id: questionId, text: "Why support?", type: "open_text", required: true, choices: [] });

    const event = (await callApi(server, "/v1/events?limit=1", { key: acme.key })).body.data.events[0];
    expect(Object.keys(event).sort()).toEqual(["api_version", "candidate", "change", "created_at", "id", "test", "type"]);
    expect(event).toMatchObject({ api_version: "v1", test: false, change: null });
  });

  it("answers unknown paths under /v1 with a 404 envelope", async () => {
    for (const path of ["/v1/nope", "/v1", "/v1/candidates/x/y/z"]) {
      const response = await callApi(server, path, { key: acme.key });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ success: false, error: "not_found", details: null, trace_id: expect.any(String) });
      expect(response.headers.get("x-trace-id")).toBe(response.body.trace_id);
    }
  });

  // A receiver testing its handler with a sample may follow the sample's links.
  it("answers the sample messages' made-up candidate with a 404 that says it is one", async () => {
    for (const path of ["/v1/candidates/cand_sample", "/v1/candidates/cand_sample/transcript", "/v1/candidates/cand_sample/recording"]) {
      const response = await callApi(server, path, { key: acme.key });
      expect(response.status, path).toBe(404);
      expect(response.body, path).toMatchObject({
        success: false,
        error: "not_found",
        message: "cand_sample is the made-up candidate of sample webhook messages (Sam Sample); it has no record in the API.",
      });
    }
    expect((await callApi(server, "/v1/candidates/cand_other", { key: acme.key })).body.message).toBe("No candidate with id cand_other was found.");
  });

  it("answers malformed percent-escapes in the path like any unknown id or path", async () => {
    for (const path of ["/v1/interviews/%", "/v1/files/%zz", "/v1/candidates/%C0%AF/transcript", "/v1/candidates/a%ED%A0%80/recording"]) {
      const response = await callApi(server, path, { key: acme.key });
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ success: false, error: "not_found", trace_id: expect.any(String) });
      expect((await callApi(server, path)).status, path).toBe(401);
    }
    expect((await callApi(server, "/v1/%ff", { key: acme.key })).body).toMatchObject({ success: false, error: "not_found" });
  });

  it("refuses every other method with 405, Allow: GET and the envelope", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]) {
      for (const path of ["/v1/candidates", `/v1/candidates/${acme.submitted.id}`, "/v1/nope", "/v1/openapi.json"]) {
        const response = await callApi(server, path, { key: acme.key, method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get("allow")).toBe("GET");
        if (method !== "HEAD") expect(response.body).toMatchObject({ success: false, error: "permission_denied" });
      }
    }
  });
});

describe("requests that never reach a route", () => {
  const request = (method: string, target: string) =>
    rawExchange(server, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${acme.key}\r\nConnection: close\r\n\r\n`);

  it("refuses TRACE and methods no route can take with 405 and, under /v1 and /downloads, the envelope", async () => {
    for (const [method, target] of [
      ["TRACE", "/v1/me"],
      ["TRACE", "/v1/nope"],
      ["PROPFIND", "/v1/candidates"],
      ["TRACE", "/downloads/x"],
      ["CONNECT", "/v1/me"],
    ] as const) {
      const answer = await request(method, target);
      expect(answer.status, `${method} ${target}`).toBe(405);
      expect(answer.headers).toContain("allow: get");
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: "permission_denied", details: null, trace_id: expect.any(String) });
    }
    const elsewhere = await request("TRACE", "/healthz");
    expect(elsewhere.status).toBe(405);
    expect(elsewhere.headers).toContain("allow: get, head, post");
  });

  it("answers an address too long for the server, and what is not HTTP, with the envelope", async () => {
    const tooLong = await request("GET", `/v1/candidates/${"x".repeat(17_000)}`);
    expect(tooLong.status).toBe(431);
    expect(tooLong.headers).toContain("content-type: application/json");
    expect(JSON.parse(tooLong.body)).toMatchObject({ success: false, error: "validation_error", trace_id: expect.any(String) });

    const notHttp = await rawExchange(server, "HELLO THERE\r\n\r\n");
    expect(notHttp.status).toBe(400);
    expect(JSON.parse(notHttp.body)).toMatchObject({ success: false, error: "validation_error" });

    expect((await request("GET", `/v1/candidates/${"x".repeat(8_000)}`)).status).toBe(404);
  });
});

describe("authentication", () => {
  const unauthorized = async (options: Parameters<typeof callApi>[2], path = "/v1/me") => {
    const response = await callApi(server, path, options);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, error: "auth_error", details: null });
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="Interview API"');
    return response;
  };

  it("refuses missing, malformed, unknown and non-bearer keys", async () => {
    await unauthorized({});
    await unauthorized({ headers: { Authorization: "Bearer" } });
    await unauthorized({ headers: { Authorization: `Basic ${acme.key}` } });
    await unauthorized({ headers: { Authorization: `Bearer ${acme.key} extra` } });
    await unauthorized({ key: "ivk_1111111111111111111111111111111111" });
    await unauthorized({ key: "not-a-key" });
  });

  it("takes the scheme name in any case, and the key only exactly", async () => {
    for (const header of [`bearer ${acme.key}`, `BEARER ${acme.key}`, `bEaReR  ${acme.key}`]) {
      expect((await callApi(server, "/v1/me", { headers: { Authorization: header } })).status, header).toBe(200);
    }
    await unauthorized({ headers: { Authorization: `bearer ${acme.key.toUpperCase()}` } });
  });

  it("refuses a key in the address, even a valid one, and does not use it", async () => {
    for (const query of [`api_key=${acme.key}`, `key=${acme.key}`, `access_token=${acme.key}`, `anything=${acme.key}`]) {
      const response = await unauthorized({ key: acme.key }, `/v1/me?${query}`);
      expect(response.body.message).toMatch(/never accepted in the address/);
    }
  });

  it("stops a revoked key on the very next request", async () => {
    const { id, key } = await createApiKey(test.ctx, { companyId: acme.companyId, name: "Short-lived" });
    expect((await callApi(server, "/v1/me", { key })).status).toBe(200);
    await revokeApiKey(test.ctx, id);
    await unauthorized({ key });
  });

  it("answers 403 for a suspended company, and works again when lifted", async () => {
    await setCompanySuspended(test.ctx, globex.companyId, true);
    const response = await callApi(server, "/v1/candidates", { key: globex.key });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, error: "permission_denied" });
    await setCompanySuspended(test.ctx, globex.companyId, false);
    expect((await callApi(server, "/v1/candidates", { key: globex.key })).status).toBe(200);
  });
});

describe("tenant isolation", () => {
  it("makes another company's resources indistinguishable from missing ones", async () => {
    const paths = (id: { interview: string; candidate: string; file: string }) => [
      `/v1/interviews/${id.interview}`,
      `/v1/candidates/${id.candidate}`,
      `/v1/candidates/${id.candidate}/transcript`,
      `/v1/candidates/${id.candidate}/recording`,
      `/v1/files/${id.file}`,
    ];
    const foreign = paths({ interview: acme.interview.id, candidate: acme.submitted.id, file: acmeDocument });
    const missing = paths({ interview: "int_missing", candidate: "cand_missing", file: "file_missing" });
    for (const [index, path] of foreign.entries()) {
      const theirs = await callApi(server, path, { key: globex.key });
      const nothing = await callApi(server, missing[index]!, { key: globex.key });
      expect(theirs.status, path).toBe(404);
      const strip = (body: Record<string, unknown>, id: string) => ({
        ...body,
        trace_id: null,
        timestamp: null,
        message: String(body.message).replace(id, "ID"),
      });
      const idOf = (p: string) => p.split("/")[3]!;
      expect(strip(theirs.body, idOf(path))).toEqual(strip(nothing.body, idOf(missing[index]!)));
    }
  });

  it("never lists or shows another company's candidates, interviews and events", async () => {
    const lists = await Promise.all(["/v1/candidates?state=all", "/v1/interviews", "/v1/events"].map((path) => callApi(server, path, { key: globex.key })));
    const ids = JSON.stringify(lists.map((list) => list.body.data));
    for (const id of [acme.submitted.id, acme.inProgress.id, acme.interview.id, acmeEvent]) expect(ids).not.toContain(id);
    const filtered = await callApi(server, `/v1/candidates?interview_id=${acme.interview.id}&state=all`, { key: globex.key });
    expect(filtered.body.data.candidates).toEqual([]);
  });

  it("hides team members' previews: never listed, their ids give 404", async () => {
    const all = await callApi(server, "/v1/candidates?state=all&limit=25", { key: acme.key });
    const listed = all.body.data.candidates.map((c: { id: string }) => c.id);
    expect(listed).toContain(acme.inProgress.id);
    expect(listed).not.toContain(acme.preview.id);
    for (const path of [`/v1/candidates/${acme.preview.id}`, `/v1/candidates/${acme.preview.id}/transcript`, `/v1/candidates/${acme.preview.id}/recording`]) {
      expect((await callApi(server, path, { key: acme.key })).status).toBe(404);
    }
    const previewFile = (await test.ctx.db.select().from(files).where(eq(files.candidateId, acme.preview.id)))[0]!;
    expect((await callApi(server, `/v1/files/${previewFile.id}`, { key: acme.key })).status).toBe(404);
  });
});

describe("query validation", () => {
  const problemsOf = async (path: string, key = acme.key) => {
    const response = await callApi(server, path, { key });
    expect(response.status, path).toBe(422);
    expect(response.body).toMatchObject({ success: false, error: "validation_error" });
    for (const problem of response.body.details.problems) {
      expect(Object.keys(problem).sort()).toEqual(["code", "message", "parameter"]);
    }
    return response.body.details.problems as Array<{ parameter: string; code: string }>;
  };

  it("lists every problem of a request at once", async () => {
    const problems = await problemsOf(
      "/v1/candidates?limit=0&status=passed,bogus&state=nope&submitted_after=yesterday&submitted_before=2026-13-01T00:00:00Z&cursor=abc",
    );
    expect(problems.map((p) => `${p.parameter}:${p.code}`).sort()).toEqual(
      [
        "cursor:invalid_cursor",
        "limit:out_of_range",
        "state:invalid_value",
        "status:invalid_value",
        "submitted_after:invalid_format",
        "submitted_before:invalid_format",
      ].sort(),
    );
  });

  it.each([
    ["/v1/interviews?limit=101", "limit"],
    ["/v1/interviews?limit=0", "limit"],
    ["/v1/interviews?limit=abc", "limit"],
    ["/v1/interviews?limit=2.5", "limit"],
    ["/v1/interviews?limit=", "limit"],
    ["/v1/interviews?limit=1&limit=2", "limit"],
    ["/v1/interviews?status=archived", "status"],
    ["/v1/interviews?cursor=garbage", "cursor"],
    ["/v1/candidates?limit=26", "limit"],
    ["/v1/candidates?status=,", "status"],
    ["/v1/candidates?status=passed,,Rejected", "status"],
    ["/v1/candidates?submitted_after=2026-11-01T09:00:00", "submitted_after"],
    ["/v1/candidates?submitted_before=2026-11-01", "submitted_before"],
    ["/v1/events?limit=26", "limit"],
    ["/v1/events?type=candidate.created", "type"],
    ["/v1/events?type=candidate.ready,nope", "type"],
    ["/v1/events?after=xyz", "after"],
  ])("refuses %s", async (path, parameter) => {
    const problems = await problemsOf(path);
    expect(problems.map((p) => p.parameter)).toEqual([parameter]);
  });

  it("says a parameter given more than once is, whichever parameter it is", async () => {
    const problems = await problemsOf(
      "/v1/candidates?status=passed&status=rejected&state=all&state=submitted&limit=1&limit=2&interview_id=a&interview_id=b&submitted_after=2026-11-01T00:00:00Z&submitted_after=2026-11-02T00:00:00Z&cursor=a&cursor=b",
    );
    expect(problems.map((p) => p.parameter).sort()).toEqual(["cursor", "interview_id", "limit", "state", "status", "submitted_after"]);
    for (const problem of problems) {
      expect(problem, problem.parameter).toMatchObject({ code: "invalid_type", message: expect.stringMatching(/^is given more than once; send it once/) });
    }
    expect(await problemsOf("/v1/events?type=candidate.ready&type=candidate.scored&after=a&after=b")).toHaveLength(2);
  });

  it("names every unknown value of a comma list in the parameter's one problem", async () => {
    const problems = await problemsOf("/v1/events?type=candidate.ready,nope,bogus,nope");
    expect(problems).toEqual([{ parameter: "type", code: "invalid_value", message: expect.stringContaining('"nope", "bogus"') }]);
  });

  it("refuses an id with a NUL character, which no id can hold, instead of failing in the database", async () => {
    for (const path of ["/v1/candidates?interview_id=%00", "/v1/events?interview_id=int_a%00b"]) {
      expect(await problemsOf(path), path).toEqual([expect.objectContaining({ parameter: "interview_id", code: "invalid_value" })]);
    }
  });

  it("refuses cursors that were altered, or come from another endpoint, ordering or company", async () => {
    const page = await callApi(server, "/v1/interviews?limit=1", { key: acme.key });
    const cursor: string = page.body.data.next_cursor ?? (await callApi(server, "/v1/events?limit=1", { key: acme.key })).body.data.next_cursor;
    const events = (await callApi(server, "/v1/events?limit=1", { key: acme.key })).body.data.next_cursor as string;
    const [body, mac] = events.split(".");
    const flipped = `${body!.slice(0, -2)}${body!.at(-2) === "A" ? "B" : "A"}${body!.at(-1)}.${mac}`;
    expect((await problemsOf(`/v1/events?after=${encodeURIComponent(flipped)}`))[0]).toMatchObject({ parameter: "after", code: "invalid_cursor" });
    expect((await problemsOf(`/v1/candidates?cursor=${encodeURIComponent(events)}`))[0]).toMatchObject({ parameter: "cursor", code: "invalid_cursor" });
    const foreign = (await callApi(server, "/v1/events?limit=1", { key: globex.key })).body.data.next_cursor as string;
    expect((await problemsOf(`/v1/events?after=${encodeURIComponent(foreign)}`))[0]).toMatchObject({ parameter: "after", code: "invalid_cursor" });
    const submittedCursor = (await callApi(server, "/v1/candidates?limit=1&state=all", { key: acme.key })).body.data.next_cursor as string;
    expect((await problemsOf(`/v1/candidates?state=submitted&cursor=${encodeURIComponent(submittedCursor)}`))[0]).toMatchObject({ parameter: "cursor" });
    expect(cursor).toBeTruthy();
  });

  it("ignores unknown query parameters", async () => {
    const response = await callApi(server, "/v1/candidates?colour=blue&limit=5", { key: acme.key });
    expect(response.status).toBe(200);
  });

  // The tests below make many requests: each uses a company of its own, so that acme's rate limits do not refuse them.
  it("ignores unknown parameters named like built-in object members, and still asks for a key", async () => {
    const { key, submitted } = await apiCompany(test.ctx, "Members");
    const names = [
      "toString",
      "constructor",
      "valueOf",
      "hasOwnProperty",
      "isPrototypeOf",
      "propertyIsEnumerable",
      "toLocaleString",
      "__defineGetter__",
      "__defineSetter__",
      "__lookupGetter__",
      "__lookupSetter__",
      "__proto__",
    ];
    for (const name of names) {
      for (const path of [`/v1/me?${name}=1`, `/v1/candidates/${submitted.id}?${name}=`, `/v1/candidates?${name}=1&${name}=2&limit=5`]) {
        expect((await callApi(server, path, { key })).status, path).toBe(200);
        expect((await callApi(server, path)).status, path).toBe(401);
      }
    }
  });

  it("takes limit only as plain decimal digits (leading zeros allowed), with one problem however far out of range", async () => {
    const { key } = await apiCompany(test.ctx, "Digits");
    expect((await callApi(server, "/v1/interviews?limit=007", { key })).status).toBe(200);
    for (const limit of ["1e1", "0x10", "+5", "%205", "5%20", "1.0", "-1", "0b1", "5_0", "\u0665"]) {
      const problems = await problemsOf(`/v1/candidates?limit=${limit}`, key);
      expect(problems, limit).toEqual([expect.objectContaining({ parameter: "limit", code: "invalid_type" })]);
    }
    for (const limit of ["99999999999999999999", "9".repeat(400), "0"]) {
      expect(await problemsOf(`/v1/events?limit=${limit}`, key), limit).toEqual([
        { parameter: "limit", code: "out_of_range", message: "must be a whole number from 1 to 25" },
      ]);
    }
  });

  it("never answers with a 5xx, whatever the input", async () => {
    const junk = ["%00", "%ff%fe", "'; drop table candidates; --", "a".repeat(1000), "🙂", "%2e%2e%2f", "[]", "{}", "null", "-1", "1e3", "0x10"];
    const paths = junk.flatMap((value) => {
      const encoded = encodeURIComponent(value);
      return [
        `/v1/candidates?limit=${encoded}&status=${encoded}&state=${encoded}&cursor=${encoded}&submitted_after=${encoded}&interview_id=${encoded}`,
        `/v1/events?after=${encoded}&type=${encoded}&interview_id=${encoded}&limit=${encoded}`,
        `/v1/interviews?status=${encoded}&cursor=${encoded}`,
        `/v1/candidates/${encoded}`,
        `/v1/candidates/${encoded}/recording`,
        `/v1/files/${encoded}`,
        `/v1/interviews/${encoded}`,
      ];
    });
    for (const path of paths) {
      const response = await callApi(server, path, { key: acme.key });
      const label = path.slice(0, 120);
      expect(response.status, label).toBeLessThan(500);
      expect(response.body.success, label).toBe(false);
    }
  });
});
