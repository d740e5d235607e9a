/**
 * /v1/openapi.json: generated from the procedures by trpc-to-openapi, then
 * corrected to describe what the API really answers. trpc-to-openapi documents
 * its own default error shape; every error here uses the spec's envelope.
 */
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { env } from "@/server/env";
import { type Example, openApiExamples } from "@/server/examples/openapi-examples";
import { authenticationChallenge, errorCodes } from "@/server/http/api-error";
import { v1Router } from "../v1/router";
import { webhooksSection } from "./openapi-webhooks";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const errorEnvelope = {
  type: "object",
  required: ["success", "error", "message", "details", "timestamp", "trace_id"],
  properties: {
    success: { const: false, description: "always false" },
    error: { type: "string", enum: [...errorCodes], description: "the error code; see the Errors guide" },
    message: { type: "string", description: "plain-language text suitable to show a person" },
    details: { description: "extra detail for some errors: `problems` for 422, `recording_status` for a recording 404; otherwise null" },
    timestamp: { type: "integer", description: "unix seconds" },
    trace_id: { type: "string", description: "to be quoted when contacting support" },
  },
};

const schemas = {
  Error: errorEnvelope,
  Problem: {
    type: "object",
    required: ["parameter", "code", "message"],
    description: "One invalid query parameter.",
    properties: {
      parameter: { type: "string", description: "the query parameter's name" },
      code: {
        type: "string",
        enum: ["invalid_type", "out_of_range", "invalid_value", "invalid_format", "invalid_cursor"],
        description:
          "the kind of problem: wrong type, out of range, a value not allowed, a malformed date-time, or a cursor this API did not give for this list",
      },
      message: { type: "string", description: "what is wrong, in words" },
    },
  },
  ValidationError: {
    allOf: [
      ref("Error"),
      {
        type: "object",
        required: ["details"],
        properties: {
          error: { const: "validation_error", description: "always validation_error" },
          details: {
            type: "object",
            required: ["problems"],
            description: "what is wrong with the query",
            properties: { problems: { type: "array", items: ref("Problem"), description: "one per invalid query parameter, all at once" } },
          },
        },
      },
    ],
  },
};

/** Sent on errors only; the headers of successes come from the procedures' meta (v1/common.ts). */
const retryAfter = { description: "seconds to wait before retrying", required: true, schema: { type: "string", pattern: "^[0-9]+$" } };
const wwwAuthenticate = {
  description: "the authentication scheme to use: `Bearer`",
  required: true,
  schema: { type: "string" },
  example: authenticationChallenge,
};

/** The error statuses an operation documents, with the headers each sends. */
const rateLimitNames = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const errorResponses = {
  "401": {
    description: "`auth_error`: the API key is missing, invalid or revoked, or was sent in the address.",
    schema: "Error",
    headers: ["WWW-Authenticate"],
  },
  "403": { description: "`permission_denied`: the company account is suspended.", schema: "Error", headers: [] },
  "404": { description: "`not_found`: nothing with this id in the caller's company.", schema: "Error", headers: rateLimitNames },
  "422": {
    description: "`validation_error`: a query parameter is not valid; `details.problems` lists each problem.",
    schema: "ValidationError",
    headers: rateLimitNames,
  },
  "429": { description: "`rate_limited`: wait `Retry-After` seconds, then retry.", schema: "Error", headers: ["Retry-After", ...rateLimitNames] },
  "500": { description: "`internal_error`: quote the trace_id to support.", schema: "Error", headers: [] },
  "503": {
    description:
      "`external_service_error`: the service cannot reach its database for now; nothing was read or changed. Wait `Retry-After` seconds, then retry.",
    schema: "Error",
    headers: ["Retry-After"],
  },
};

/** An error response of one operation, with the examples generated for it (openapi-examples.ts). */
function documentedErrorResponse(status: keyof typeof errorResponses, examples: Record<string, Example> | undefined) {
  const { description, schema, headers } = errorResponses[status];
  return {
    description,
    headers: Object.fromEntries(["X-Trace-Id", ...headers].map((name) => [name, headerRef(name)])),
    content: { "application/json": { schema: ref(schema), ...(examples ? { examples } : {}) } },
  };
}

const description = () => `Read-only access to interviews, candidates, transcripts, recordings, files and the change history.

- Authenticate with \`Authorization: Bearer <API key>\`. A key is never accepted in the address.
- Every response uses an envelope: \`{success: true, data, timestamp, trace_id}\` or \`{success: false, error, message, details, timestamp, trace_id}\`.
- Only GET is accepted: any other method on any path answers **405** with \`Allow: GET\` and error \`permission_denied\`.
- Limits: ${env.RATE_LIMIT_PER_KEY} requests per minute per key and ${env.RATE_LIMIT_PER_COMPANY} per company; \`RateLimit-*\` headers on every admitted response.`;

/**
 * zod renders every object closed (`additionalProperties: false`), but fields
 * may be added at any time and clients must ignore what they do not know
 * (spec 9): a client validating against a closed object would break on the
 * first new field. Every object of the document stays open.
 */
function openObjects(node: unknown) {
  if (typeof node !== "object" || node === null) return;
  if ("additionalProperties" in node && node.additionalProperties === false) delete node.additionalProperties;
  for (const child of Object.values(node)) openObjects(child);
}

/**
 * zod documents what it checks with, not what a client needs: every date-time
 * gets zod's own checking regex as `pattern` beside `format: date-time`, and
 * every integer JavaScript's safe range (±2^53 − 1) as its bounds. Both make
 * the reference and generated clients noisy and say nothing the format and the
 * descriptions do not; they are left out. Bounds the API really has (a score's
 * 0 to 100, a page size's) stay.
 */
function withoutCheckingNoise(node: unknown) {
  if (typeof node !== "object" || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.format === "date-time") delete schema.pattern;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const child of Object.values(schema)) withoutCheckingNoise(child);
}

function build(): OpenAPIObject {
  const document = generateOpenApiDocument(v1Router, {
    title: "Interview API",
    version: "1.0.0",
    description: description(),
    baseUrl: `${env.APP_URL}/v1`,
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key created in the settings by a company admin." } },
  });
  openObjects(document);
  withoutCheckingNoise(document);
  const generated = document.components?.schemas ?? {};
  for (const name of Object.keys(generated)) if (name.startsWith("error.")) delete generated[name];
  const headers: Record<string, object> = { ...document.components?.headers, "Retry-After": retryAfter, "WWW-Authenticate": wwwAuthenticate };
  for (const [name, example] of Object.entries(openApiExamples.headers)) if (headers[name]) headers[name] = { ...headers[name], example };
  document.components = { ...document.components, schemas: { ...generated, ...schemas }, headers } as OpenAPIObject["components"];

  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operation = item.get;
    const success = operation?.responses?.["200"];
    if (!operation || !success) continue;
    const examples = openApiExamples.responses[path] ?? {};
    const hasQuery = (operation.parameters ?? []).some((parameter) => "in" in parameter && parameter.in === "query");
    const statuses: Array<keyof typeof errorResponses> = [
      "401",
      "403",
      ...(path.includes("{") ? ["404" as const] : []),
      ...(hasQuery ? ["422" as const] : []),
      "429",
      "500",
      "503",
    ];
    if (examples["200"]) success.content["application/json"].examples = examples["200"];
    operation.responses = { "200": success, ...Object.fromEntries(statuses.map((status) => [status, documentedErrorResponse(status, examples[status])])) };
  }
  document.webhooks = webhooksSection(openApiExamples.webhooks) as OpenAPIObject["webhooks"];
  return document;
}

let cached: OpenAPIObject | undefined;

export function openApiDocument(): OpenAPIObject {
  cached ??= build();
  return cached;
}
