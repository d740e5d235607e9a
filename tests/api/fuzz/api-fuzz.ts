/**
 * Property-based fuzzing of every /v1 endpoint, shared by `tests/api/fuzz.test.ts`
 * (a few hundred cases per endpoint in `npm test`) and `npm run fuzz` (many more).
 *
 * Each case is one GET with a random query (known and unknown names, built-in
 * object member names, repeated keys, unicode, huge and negative numbers,
 * extreme date-times, long values, raw percent-encoding oddities), a real or
 * random id for path parameters, and a valid, oddly written, malformed or
 * missing Authorization header. The property: the answer is the spec's
 * envelope with a 2xx or 4xx status, never a 5xx.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { candidateStatuses, eventTypes, interviewStatuses } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { candidateStates } from "@/server/read/candidates";
import { apiCompany } from "../../support/api-fixtures";

/** What the fuzzer knows of the company it calls as: its key, and real ids and cursors. */
export type FuzzCompany = {
  key: string;
  ids: { interview: string[]; candidate: string[]; file: string[] };
  cursors: string[];
};

export type FuzzEndpoint = { template: string; queryNames: string[] };

type Answer = { status: number; headers: Headers; text: string };

/** A company with candidates in several states, seen through the API. */
export async function fuzzCompany(ctx: DomainContext, baseUrl: string): Promise<FuzzCompany> {
  const company = await apiCompany(ctx, "Fuzz");
  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${company.key}` } });
    assert.equal(response.status, 200, path);
    return (await response.json()).data;
  };
  const submitted = (await get(`/v1/candidates/${company.submitted.id}`)).candidate;
  const cursors = [(await get("/v1/events?limit=1")).next_cursor, (await get("/v1/candidates?state=all&limit=1")).next_cursor];
  return {
    key: company.key,
    ids: {
      interview: [company.interview.id],
      candidate: [company.submitted.id, company.inProgress.id, company.preview.id],
      file: submitted.documents.map((document: { id: string }) => document.id),
    },
    cursors,
  };
}

/** Every GET path of the served OpenAPI document, with its query parameters. */
export async function fuzzEndpoints(baseUrl: string): Promise<FuzzEndpoint[]> {
  const document = await (await fetch(`${baseUrl}/v1/openapi.json`)).json();
  return Object.entries(document.paths as Record<string, { get: { parameters?: Array<{ in: string; name: string }> } }>).map(([template, item]) => ({
    template,
    queryNames: (item.get.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
  }));
}

const objectMemberNames = Object.getOwnPropertyNames(Object.prototype);
const keyParameterNames = ["api_key", "key", "token", "access_token", "Authorization"];
const words = [...candidateStatuses, ...eventTypes, ...interviewStatuses, ...candidateStates, "", ",", " ", "null", "undefined", "true", "[]", "{}"];

const printableAscii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });

const numbers = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: -5, max: 130 }).map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.constantFrom("1e1", "0x10", "+5", " 5", "5 ", "007", "-0", "1.0", "Infinity", "NaN", "9".repeat(400), "\u0665", "１０"),
);

const pad = (value: number, length: number) => String(Math.abs(value)).padStart(length, "0");

/** RFC 3339-like date-times across years 0000 to 9999 and offsets up to ±23:59, some of them impossible. */
const dateTimes = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.option(fc.stringMatching(/^\.[0-9]{1,12}$/), { nil: "" }),
    offset: fc.oneof(
      fc.constantFrom("Z", "z", "+00:00", "-00:00", "", "+2359"),
      fc
        .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`),
    ),
  })
  .map((d) => `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}T${pad(d.hour, 2)}:${pad(d.minute, 2)}:${pad(d.second, 2)}${d.fraction}${d.offset}`);

/** Written into the address as they are, not encoded. */
const percentOddities = fc.constantFrom(
  "%",
  "%z",
  "%zz",
  "%00",
  "%ff%fe",
  "%ED%A0%80",
  "%C0%AF",
  "+",
  "%2B",
  "&",
  "&&",
  "=",
  "==",
  ";",
  "#",
  "%23",
  "%26",
  "%3D",
  "%%",
  "%u0041",
  "%E2%82",
);

/** Values as they are written into the address: most encoded, a few raw. */
function valuesFor(company: FuzzCompany): fc.Arbitrary<string> {
  const values = fc.oneof(
    { weight: 3, arbitrary: numbers },
    { weight: 3, arbitrary: dateTimes },
    { weight: 3, arbitrary: fc.constantFrom(...words) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...words), { maxLength: 4 }).map((list) => list.join(",")) },
    { weight: 2, arbitrary: fc.constantFrom(...company.cursors, ...Object.values(company.ids).flat(), company.key) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1000, maxLength: 4000 }) },
  );
  return fc.oneof({ weight: 9, arbitrary: values.map(encodeURIComponent) }, { weight: 1, arbitrary: percentOddities });
}

function namesFor(endpoint: FuzzEndpoint): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: endpoint.queryNames.length > 0 ? fc.constantFrom(...endpoint.queryNames) : fc.constant("limit") },
    { weight: 2, arbitrary: fc.constantFrom(...objectMemberNames) },
    { weight: 1, arbitrary: fc.constantFrom(...keyParameterNames) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  );
}

function pathIds(template: string, company: FuzzCompany): fc.Arbitrary<string> {
  const real = template.startsWith("/interviews") ? company.ids.interview : template.startsWith("/files") ? company.ids.file : company.ids.candidate;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...real).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.values(company.ids).flat(), "__proto__", "constructor").map(encodeURIComponent) },
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: "grapheme", minLength: 1, maxLength: 60 })
        .filter((id) => id !== "." && id !== "..")
        .map(encodeURIComponent),
    },
    { weight: 1, arbitrary: fc.constantFrom("%", "%zz", "%00", "%ff", "%2F", "%5C", "%20", "+") },
  );
}

function authorizations(key: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${key}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("bearer", "BEARER", "Bearer", "Basic", "Token", ""),
          fc.constantFrom(" ", "  ", "\t", ""),
          fc.constantFrom(key, key.toUpperCase(), key.slice(0, -1), `${key} extra`, ""),
        )
        .map((parts) => parts.join("")),
    },
    { weight: 1, arbitrary: printableAscii },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** One random request to `endpoint`: the path with its query, and the Authorization header (if any). */
export function requests(endpoint: FuzzEndpoint, company: FuzzCompany) {
  const pathArbitrary = endpoint.template.includes("{id}")
    ? pathIds(endpoint.template, company).map((id) => endpoint.template.replace("{id}", id))
    : fc.constant(endpoint.template);
  const parameter = fc.tuple(namesFor(endpoint), valuesFor(company)).map(([name, value]) => `${encodeURIComponent(name)}=${value}`);
  return fc.record({
    path: fc.tuple(pathArbitrary, fc.array(parameter, { maxLength: 6 })).map(([path, query]) => `/v1${path}${query.length > 0 ? `?${query.join("&")}` : ""}`),
    authorization: authorizations(company.key),
  });
}

const statusOfError: Record<string, number> = {
  validation_error: 422,
  not_found: 404,
  auth_error: 401,
  permission_denied: 403,
  rate_limited: 429,
};
const problemCodes = ["invalid_type", "out_of_range", "invalid_value", "invalid_format", "invalid_cursor"];

/** The property: the spec's envelope (2.1, 7) with a 2xx or 4xx status. */
export function assertSpecAnswer(answer: Answer) {
  assert.ok(answer.status >= 200 && answer.status < 500, `status ${answer.status}: ${answer.text.slice(0, 300)}`);
  assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
  const body = JSON.parse(answer.text);
  assert.equal(typeof body.trace_id, "string");
  assert.equal(answer.headers.get("x-trace-id"), body.trace_id);
  assert.ok(Number.isInteger(body.timestamp), "timestamp is an integer");
  if (answer.status < 300) {
    assert.equal(body.success, true);
    assert.equal(typeof body.data, "object");
    assert.notEqual(body.data, null);
    return;
  }
  assert.equal(body.success, false);
  assert.equal(statusOfError[body.error], answer.status, `error ${body.error} with status ${answer.status}`);
  assert.equal(typeof body.message, "string");
  assert.ok("details" in body, "details is present");
  if (answer.status === 422) {
    const problems: Array<{ parameter: string; code: string; message: string }> = body.details.problems;
    assert.ok(problems.length > 0, "422 lists its problems");
    for (const problem of problems) {
      assert.deepEqual(Object.keys(problem).sort(), ["code", "message", "parameter"]);
      assert.ok(problemCodes.includes(problem.code), `problem code ${problem.code}`);
    }
    const parameters = problems.map((problem) => problem.parameter);
    assert.equal(new Set(parameters).size, parameters.length, `one problem per parameter: ${parameters.join(", ")}`);
  }
}

/** Runs `runs` random requests to one endpoint; throws fast-check's report (seed, counterexample) on failure. */
export async function fuzzEndpoint(baseUrl: string, endpoint: FuzzEndpoint, company: FuzzCompany, options: { runs: number; seed: number }) {
  await fc.assert(
    fc.asyncProperty(requests(endpoint, company), async ({ path, authorization }) => {
      const response = await fetch(`${baseUrl}${path}`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
      assertSpecAnswer({ status: response.status, headers: response.headers, text: await response.text() });
    }),
    { numRuns: options.runs, seed: options.seed },
  );
}

/** A fresh seed for each run unless FUZZ_SEED or --seed fixes one. */
export const newSeed = () => Math.floor(Math.random() * 2 ** 31);
