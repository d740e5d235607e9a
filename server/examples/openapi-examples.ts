/**
 * The examples of /v1/openapi.json: real answers of the API to the demo
 * history, written to openapi-examples.json by `npm run openapi:examples`
 * (tests/api/generate-openapi-examples.ts), never by hand, so they show what
 * the API really sends. tests/api/openapi.test.ts checks each one against the
 * schema it illustrates; after a change to what the API answers, generate
 * them again.
 */
import generated from "./openapi-examples.json";

/** An OpenAPI Example Object; `description` names the request that was answered with `value`. */
export type Example = { summary: string; description: string; value: unknown };

/** A webhook message as the worker sends it: its headers (but `Content-Type`) and its body. */
export type WebhookExample = { summary: string; description: string; headers: Record<string, string>; body: unknown };

export type OpenApiExamples = {
  /** By path (as the document writes it), then status code, then example name. */
  responses: Record<string, Record<string, Record<string, Example>>>;
  /** One real value of each response header the document describes. */
  headers: Record<string, string>;
  /** By event type. */
  webhooks: Record<string, WebhookExample>;
};

export const openApiExamples: OpenApiExamples = generated;
