/**
 * Two signature schemes over the same body, one per valid secret (two during
 * the 24 hours after a replacement):
 *
 * - `Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>]` (spec 5.1): a hex
 *   HMAC-SHA256 over `<t>.<raw body>` keyed with the whole secret text, the
 *   scheme Stripe's libraries verify;
 * - Standard Webhooks (standardwebhooks.com): `webhook-id`,
 *   `webhook-timestamp` and `webhook-signature: v1,<base64>[ v1,<base64>]`, a
 *   base64 HMAC-SHA256 over `<id>.<timestamp>.<raw body>` keyed with the
 *   bytes the secret's base64 part (after `whsec_`) decodes to.
 */
import { createHmac } from "node:crypto";

export function signatureHeader(body: string, secrets: string[], timestamp: number): string {
  const signed = `${timestamp}.${body}`;
  const values = secrets.map((secret) => `v1=${createHmac("sha256", secret).update(signed).digest("hex")}`);
  return [`t=${timestamp}`, ...values].join(",");
}

/** The Standard Webhooks headers for a message id (our event id, the same on every try and resend). */
export function standardWebhookHeaders(id: string, body: string, secrets: string[], timestamp: number) {
  const signed = `${id}.${timestamp}.${body}`;
  const values = secrets.map(
    (secret) =>
      `v1,${createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
        .update(signed)
        .digest("base64")}`,
  );
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": values.join(" ") };
}
