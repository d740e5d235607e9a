/**
 * `Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>]` (spec 5.1): a hex
 * HMAC-SHA256 over `<t>.<raw body>` keyed with the whole secret, one `v1` per
 * valid secret (two during the 24 hours after a replacement).
 */
import { createHmac } from "node:crypto";

export function signatureHeader(body: string, secrets: string[], timestamp: number): string {
  const signed = `${timestamp}.${body}`;
  const values = secrets.map((secret) => `v1=${createHmac("sha256", secret).update(signed).digest("hex")}`);
  return [`t=${timestamp}`, ...values].join(",");
}
