/**
 * The two signature schemes every delivery carries, over the same raw body:
 *
 * - `Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>]` (the spec's own): hex
 *   HMAC-SHA256 of `<t>.<raw body>`, keyed with the whole secret text;
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp` and
 *   `webhook-signature: v1,<base64>[ v1,<base64>]`, base64 HMAC-SHA256 of
 *   `<id>.<timestamp>.<raw body>`, keyed with the bytes that the secret's
 *   part after `whsec_` decodes to from base64.
 *
 * Two values appear while a replaced secret still signs (24 hours); a message
 * is genuine when any of them matches.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Event } from "./api-types.js";

export type RawBody = string | Uint8Array;
/** Fetch-style `Headers`, or Node's `request.headers` (lower-case names). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerificationFailure =
  | "missing_signature"
  | "malformed_signature"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "signature_mismatch"
  | "body_not_json";

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: VerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

function specDigest(body: RawBody, secret: string, timestamp: string): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
}

function standardDigest(body: RawBody, secret: string, id: string, timestamp: string): Buffer {
  return createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest();
}

/** The signature headers a delivery of `body` carries, as the service signs them. */
export function signWebhook(body: RawBody, secret: string, message: { id: string; timestamp: number }): Record<string, string> {
  const timestamp = String(message.timestamp);
  return {
    "Service-Signature": `t=${timestamp},v1=${specDigest(body, secret, timestamp).toString("hex")}`,
    "webhook-id": message.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${standardDigest(body, secret, message.id, timestamp).toString("base64")}`,
  };
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Compares in constant time; a value of the wrong length cannot match. */
function matchesAny(expected: Buffer, given: Buffer[]): boolean {
  return given.some((value) => value.length === expected.length && timingSafeEqual(value, expected));
}

function checkTimestamp(timestamp: string, toleranceSeconds: number) {
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("malformed_signature", `The timestamp "${timestamp}" is not whole unix seconds.`);
  const age = Math.floor(Date.now() / 1000) - Number(timestamp);
  if (age > toleranceSeconds) throw new WebhookVerificationError("timestamp_too_old", `Signed ${age} s ago, more than the ${toleranceSeconds} s allowed.`);
  if (-age > toleranceSeconds) {
    throw new WebhookVerificationError("timestamp_in_future", `Signed ${-age} s ahead of this clock, more than the ${toleranceSeconds} s allowed.`);
  }
}

function verifySpecSignature(body: RawBody, value: string, secret: string, toleranceSeconds: number) {
  const parts = value.split(",").map((part) => {
    const [name = "", ...rest] = part.split("=");
    return [name.trim(), rest.join("=").trim()] as const;
  });
  const timestamp = parts.find(([name]) => name === "t")?.[1];
  const signatures = parts.filter(([name]) => name === "v1").map(([, digest]) => Buffer.from(digest, "hex"));
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError("malformed_signature", "Service-Signature needs t= and at least one v1=.");
  }
  checkTimestamp(timestamp, toleranceSeconds);
  if (!matchesAny(specDigest(body, secret, timestamp), signatures)) {
    throw new WebhookVerificationError("signature_mismatch", "No v1 value of Service-Signature matches this body and secret.");
  }
}

function verifyStandardSignature(body: RawBody, headers: WebhookHeaders, value: string, secret: string, toleranceSeconds: number) {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  if (id === undefined || timestamp === undefined) {
    throw new WebhookVerificationError("malformed_signature", "webhook-signature needs webhook-id and webhook-timestamp beside it.");
  }
  checkTimestamp(timestamp, toleranceSeconds);
  const signatures = value
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => Buffer.from(entry.slice(3), "base64"));
  if (!matchesAny(standardDigest(body, secret, id, timestamp), signatures)) {
    throw new WebhookVerificationError("signature_mismatch", "No v1 value of webhook-signature matches this body and secret.");
  }
}

/**
 * Checks that a webhook message was signed with `secret` within
 * `toleranceSeconds` (either way) of this machine's clock, and returns its
 * event. Pass the body exactly as received: parsing and re-encoding changes it.
 * `Service-Signature` decides when present; otherwise the Standard Webhooks
 * headers do. Throws a `WebhookVerificationError` saying why a message is refused.
 */
export function verifyWebhook(rawBody: RawBody, headers: WebhookHeaders, secret: string, options: { toleranceSeconds?: number } = {}): Event {
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const spec = header(headers, "service-signature");
  const standard = header(headers, "webhook-signature");
  if (spec !== undefined) verifySpecSignature(rawBody, spec, secret, toleranceSeconds);
  else if (standard !== undefined) verifyStandardSignature(rawBody, headers, standard, secret, toleranceSeconds);
  else throw new WebhookVerificationError("missing_signature", "Neither Service-Signature nor webhook-signature is present.");
  try {
    return JSON.parse(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8"));
  } catch {
    throw new WebhookVerificationError("body_not_json", "The signature matches but the body is not JSON.");
  }
}
