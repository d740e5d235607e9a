/** /v1/openapi.json is valid OpenAPI 3.1 and describes every real response, success and error. */
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eventTypes } from "@/db/schema";
import { createApiKey, setCompanyRateLimits, setCompanySuspended } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { changeStatus } from "@/server/domain/statuses";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { completeSteps, scoreAndRecord, startCandidate } from "../support/fixtures";
import { type ApiResponse, callApi, useTestServer } from "../support/server";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const server = useTestServer(test);
const bed = useWebhookTestbed(test);
type Document = {
  openapi: string;
  paths: Record<string, { get: Operation }>;
  webhooks: Record<string, { post: Operation & { requestBody: { required: boolean; content: Record<string, MediaType> } } }>;
  components: Record<string, Record<string, any>>;
};
type Operation = {
  operationId: string;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: object; example?: unknown }>;
  responses: Record<string, any>;
  security?: unknown;
};
type MediaType = { schema: object; examples?: Record<string, { summary: string; description: string; value: unknown }> };
let document: Document;
let acme: ApiCompany;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  const response = await fetch(`${server.baseUrl}/v1/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
  ajv.addSchema(document, "openapi.json");
  acme = await apiCompany(test.ctx, "Acme");
});

function responseFor(template: string, status: number | string) {
  const response = document.paths[template]!.get.responses[String(status)];
  expect(response, `${template} documents ${status}`).toBeDefined();
  return response as { content: { "application/json": MediaType }; headers?: Record<string, { $ref?: string; required?: boolean }> };
}

/** Fails, saying where and why, unless the value is valid for a schema of the document (its references resolved in the document). */
function expectValid(schema: object, value: unknown, where: string) {
  const inDocument = JSON.stringify(schema).replaceAll('"#/components', '"openapi.json#/components');
  const validate = ajv.compile({ $id: `check-${Math.random()}`, ...JSON.parse(inDocument) });
  expect(validate(value), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

/** The real response must match what the document says for this path and status. */
function expectDocumented(template: string, actual: ApiResponse) {
  const documented = responseFor(template, actual.status);
  expectValid(documented.content["application/json"].schema, actual.body, `${template} ${actual.status}`);
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const resolved = header.$ref ? document.components.headers![header.$ref.split("/").at(-1)!] : header;
    if (resolved.required || name.startsWith("RateLimit")) expect(actual.headers.get(name), `${template} ${actual.status} header ${name}`).not.toBeNull();
  }
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1, served without a key, with the bearer scheme", async () => {
    expect(document.openapi).toBe("3.1.0");
    await SwaggerParser.validate(structuredClone(document) as never);
    expect(document.components.securitySchemes).toMatchObject({ bearerAuth: { type: "http", scheme: "bearer" } });
    expect(Object.keys(document.components.schemas!).filter((name) => name.startsWith("error."))).toEqual([]);
    expect(document.components.schemas!.Problem.required).toEqual(["parameter", "code", "message"]);
    expect(Object.keys(document.components.headers!)).toEqual(
      expect.arrayContaining(["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
    );
  });

  it("documents every endpoint of the spec with its error responses", () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/candidates",
        "/candidates/{id}",
        "/candidates/{id}/recording",
        "/candidates/{id}/transcript",
        "/events",
        "/files/{id}",
        "/interviews",
        "/interviews/{id}",
        "/me",
      ].sort(),
    );
    for (const [path, item] of Object.entries(document.paths)) {
      const codes = Object.keys(item.get.responses);
      expect(codes, path).toEqual(expect.arrayContaining(["200", "401", "403", "429", "500"]));
      expect(codes.includes("404"), path).toBe(path.includes("{id}"));
      expect(codes.includes("422"), path).toBe((item.get.parameters ?? []).some((p) => p.in === "query"));
      expect(item.get.security, path).toEqual([{ bearerAuth: [] }]);
    }
  });

  it("keeps every object open and documents the success envelope's optional message, so added fields break no client (spec 2.1, 9)", () => {
    expect(JSON.stringify(document)).not.toContain('"additionalProperties":false');
    for (const [path, _item] of Object.entries(document.paths)) {
      const envelope = responseFor(path, 200).content["application/json"].schema as { properties: Record<string, unknown>; required: string[] };
      expect(envelope.properties.message, path).toEqual({ type: "string", description: expect.any(String) });
      expect(envelope.required, path).toEqual(["success", "data", "timestamp", "trace_id"]);
    }
  });
});

describe("what the reference and generated clients show", () => {
  /** Every schema node of the document with the path that reaches it, components, inline response schemas and webhooks alike. */
  function* schemaNodes(node: unknown, where: string): Generator<[string, Record<string, unknown>]> {
    if (typeof node !== "object" || node === null) return;
    yield [where, node as Record<string, unknown>];
    for (const [key, child] of Object.entries(node)) yield* schemaNodes(child, `${where}/${key}`);
  }

  it("describes every property of every schema", () => {
    const undescribed: string[] = [];
    let properties = 0;
    for (const [where, node] of schemaNodes(document, "#")) {
      // A schema's `properties`, not a property that happens to be called so.
      if (where.endsWith("/properties") || typeof node.properties !== "object" || node.properties === null) continue;
      for (const [name, property] of Object.entries(node.properties as Record<string, { description?: string }>)) {
        properties++;
        if (!property.description?.trim()) undescribed.push(`${where}/properties/${name}`);
      }
    }
    expect(properties).toBeGreaterThan(150);
    expect(undescribed).toEqual([]);
  });

  it("publishes neither zod's date-time regex nor JavaScript's safe-integer range as bounds", () => {
    const zodPatterns = [z.iso.datetime(), z.iso.datetime({ offset: true })].map((schema) => z.toJSONSchema(schema).pattern);
    expect(zodPatterns.every((pattern) => typeof pattern === "string" && pattern.length > 100)).toBe(true);
    const noisy = [...schemaNodes(document, "#")]
      .filter(([, node]) => zodPatterns.includes(node.pattern as string) || Math.abs(Number(node.minimum ?? node.maximum)) === Number.MAX_SAFE_INTEGER)
      .map(([where]) => where);
    expect(noisy).toEqual([]);
    expect(JSON.stringify(document)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    // The bounds the API really has stay: a score is 0 to 100.
    expect(document.components.schemas!.Result.properties.score).toMatchObject({ anyOf: [{ type: "integer", minimum: 0, maximum: 100 }, { type: "null" }] });
  });
});

describe("every real response matches the document", () => {
  it("for successes", async () => {
    const { submitted, interview, key } = acme;
    const document = (await callApi(server, `/v1/candidates/${submitted.id}`, { key })).body.data.candidate.documents[0].id;
    const calls: Array<[string, string]> = [
      ["/me", "/v1/me"],
      ["/interviews", "/v1/interviews?limit=1"],
      ["/interviews/{id}", `/v1/interviews/${interview.id}`],
      ["/candidates", "/v1/candidates"],
      ["/candidates", "/v1/candidates?state=all&limit=1"],
      ["/candidates", "/v1/candidates?state=in_progress"],
      ["/candidates/{id}", `/v1/candidates/${submitted.id}`],
      ["/candidates/{id}", `/v1/candidates/${acme.inProgress.id}`],
      ["/candidates/{id}/transcript", `/v1/candidates/${submitted.id}/transcript`],
      ["/candidates/{id}/recording", `/v1/candidates/${submitted.id}/recording`],
      ["/events", "/v1/events"],
      ["/events", "/v1/events?type=candidate.ready"],
      ["/files/{id}", `/v1/files/${document}`],
    ];
    for (const [template, path] of calls) {
      const response = await callApi(server, path, { key });
      expect(response.status, path).toBe(200);
      expectDocumented(template, response);
    }
  });

  it("for errors", async () => {
    const { key } = acme;
    for (const template of Object.keys(document.paths)) {
      const path = `/v1${template.replace("{id}", "nope")}`;
      expectDocumented(template, await callApi(server, path));
      if (template.includes("{id}")) expectDocumented(template, await callApi(server, path, { key }));
    }
    for (const [template, path] of [
      ["/interviews", "/v1/interviews?limit=0&status=x"],
      ["/candidates", "/v1/candidates?state=x&cursor=y"],
      ["/events", "/v1/events?after=z&type=q"],
    ] as const) {
      const response = await callApi(server, path, { key });
      expect(response.status).toBe(422);
      expectDocumented(template, response);
    }
    const noRecording = await callApi(server, `/v1/candidates/${acme.inProgress.id}/recording`, { key });
    expect(noRecording.status).toBe(404);
    expectDocumented("/candidates/{id}/recording", noRecording);
  });

  it("for suspended and rate-limited callers", async () => {
    const other = await apiCompany(test.ctx, "Limited");
    await setCompanyRateLimits(test.ctx, other.companyId, { perKey: 1, perCompany: null });
    expectDocumented("/candidates", await callApi(server, "/v1/candidates", { key: other.key }));
    const limited = await callApi(server, "/v1/candidates", { key: other.key });
    expect(limited.status).toBe(429);
    expectDocumented("/candidates", limited);

    const { key } = await createApiKey(test.ctx, { companyId: other.companyId, name: "second" });
    await setCompanySuspended(test.ctx, other.companyId, true);
    const suspended = await callApi(server, "/v1/events", { key });
    expect(suspended.status).toBe(403);
    expectDocumented("/events", suspended);
  });
});

describe("the examples", () => {
  const errorCodeOf: Record<string, string> = {
    "401": "auth_error",
    "403": "permission_denied",
    "404": "not_found",
    "422": "validation_error",
    "429": "rate_limited",
    "500": "internal_error",
    "503": "external_service_error",
  };

  it("are on every response of every endpoint, each valid for its schema and carrying the status's error code", () => {
    for (const [template, item] of Object.entries(document.paths)) {
      for (const status of Object.keys(item.get.responses)) {
        const media = responseFor(template, status).content["application/json"];
        const examples = Object.entries(media.examples ?? {});
        expect(examples.length, `${template} ${status} has examples`).toBeGreaterThan(0);
        for (const [name, example] of examples) {
          expect(example.summary && example.description, `${template} ${status} ${name}`).toBeTruthy();
          expectValid(media.schema, example.value, `${template} ${status} example ${name}`);
          expect((example.value as { error?: string }).error, `${template} ${status} example ${name}`).toBe(errorCodeOf[status]);
        }
      }
    }
  });

  it("are on every webhook's body and headers and every response header, each valid for its schema", () => {
    for (const [type, item] of Object.entries(document.webhooks)) {
      const media = item.post.requestBody.content["application/json"]!;
      const examples = Object.values(media.examples ?? {});
      expect(examples, type).toHaveLength(1);
      expectValid(media.schema, examples[0]!.value, `webhook ${type}`);
      expect(examples[0]!.value, type).toMatchObject({ type });
      for (const parameter of item.post.parameters!) {
        expect(parameter.example, `webhook ${type} header ${parameter.name}`).toBeDefined();
        expectValid(parameter.schema, parameter.example, `webhook ${type} header ${parameter.name}`);
      }
    }
    for (const [name, header] of Object.entries(document.components.headers!)) {
      expect(header.example, `header ${name}`).toBeDefined();
      expectValid(header.schema, header.example, `header ${name}`);
    }
  });

  it("carry no API key, signing secret or address of the run that made them", () => {
    const examples = [
      ...Object.values(document.paths).flatMap((item) => Object.values(item.get.responses).map((response) => response.content)),
      ...Object.values(document.webhooks).map((item) => [item.post.parameters, item.post.requestBody]),
      document.components.headers,
    ];
    const text = JSON.stringify(examples);
    expect(text).toContain("https://interviews.example.com/");
    expect(text).not.toMatch(/ivk_[1-9A-Za-z]{20}/);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/]{20}/);
    expect(text).not.toMatch(/127\.0\.0\.1|localhost/);
  });
});

describe("the webhooks section", () => {
  it("documents a POST of the Event for each event type, with both header families and a 2xx answer", () => {
    expect(Object.keys(document.webhooks)).toEqual([...eventTypes]);
    for (const [type, item] of Object.entries(document.webhooks)) {
      expect(Object.keys(item), type).toEqual(["post"]);
      expect(item.post.requestBody.required, type).toBe(true);
      expect(item.post.requestBody.content["application/json"]!.schema, type).toEqual({ $ref: "#/components/schemas/Event" });
      expect(
        item.post.parameters!.map((parameter) => [parameter.in, parameter.name, parameter.required]),
        type,
      ).toEqual(
        expect.arrayContaining(
          [
            "Service-Event-Id",
            "Service-Event-Type",
            "Service-Delivery-Attempt",
            "Service-Signature",
            "webhook-id",
            "webhook-timestamp",
            "webhook-signature",
          ].map((name) => ["header", name, true]),
        ),
      );
      expect(Object.keys(item.post.responses), type).toContain("2XX");
    }
  });

  it("describes real deliveries: every header they carry but Content-Type, with valid values, and a valid body", async () => {
    await createWebhook(test.ctx, acme.companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const candidate = await startCandidate(test.ctx, acme.interview.id, { email: "hooked@acme.example" });
    await completeSteps(test.ctx, acme.interview, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    await changeStatus(test.ctx, candidate.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
    await pump(bed.deps);
    const received = bed.receiver.received;
    expect(new Set(received.map((request) => request.headers["service-event-type"]))).toEqual(new Set(eventTypes));
    for (const request of received) {
      const type = request.headers["service-event-type"] as string;
      const operation = document.webhooks[type]!.post;
      const documented = new Map(operation.parameters!.map((parameter) => [parameter.name.toLowerCase(), parameter]));
      const ours = Object.keys(request.headers).filter((name) => /^(service-|webhook-)/.test(name) || name === "user-agent");
      expect(ours.sort(), type).toEqual([...documented.keys()].sort());
      for (const [name, parameter] of documented) expectValid(parameter.schema, request.headers[name], `${type} header ${name}`);
      expectValid(operation.requestBody.content["application/json"]!.schema, JSON.parse(request.body), `${type} body`);
    }
  });
});
