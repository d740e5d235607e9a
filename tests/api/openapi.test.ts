/** /v1/openapi.json is valid OpenAPI 3.1 and describes every real response, success and error. */
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey, setCompanyRateLimits, setCompanySuspended } from "@/server/domain/accounts";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { type ApiResponse, callApi, useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
type Document = { openapi: string; paths: Record<string, { get: Operation }>; components: Record<string, Record<string, any>> };
type Operation = { operationId: string; parameters?: Array<{ in: string; name: string }>; responses: Record<string, any>; security?: unknown };
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

function responseFor(template: string, status: number) {
  const operation = document.paths[template]!.get;
  let response = operation.responses[String(status)];
  expect(response, `${template} documents ${status}`).toBeDefined();
  if (response.$ref) response = document.components.responses![response.$ref.split("/").at(-1)!];
  return response as { content: { "application/json": { schema: object } }; headers?: Record<string, { $ref?: string; required?: boolean }> };
}

/** The real response must match what the document says for this path and status. */
function expectDocumented(template: string, actual: ApiResponse) {
  const documented = responseFor(template, actual.status);
  const pointer = JSON.stringify(documented.content["application/json"].schema);
  const validate = ajv.compile({ $id: `check-${Math.random()}`, ...JSON.parse(pointer.replaceAll('"#/components', '"openapi.json#/components')) });
  const valid = validate(actual.body);
  expect(valid, `${template} ${actual.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
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
      expect(envelope.properties.message, path).toEqual({ type: "string" });
      expect(envelope.required, path).toEqual(["success", "data", "timestamp", "trace_id"]);
    }
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
