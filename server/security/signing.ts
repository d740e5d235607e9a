/**
 * Keys derived from APP_SECRET, one per purpose, so a value signed for one
 * use (a cursor) can never pass as another (a download link).
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { appSecret } from "@/server/env";

export type SigningPurpose = "cursor" | "download" | "webhook-secret-encryption";

const keys = new Map<SigningPurpose, Buffer>();

export function derivedKey(purpose: SigningPurpose): Buffer {
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret(), "interview-api", purpose, 32));
    keys.set(purpose, key);
  }
  return key;
}

/** `<base64url payload>.<base64url mac>` */
export function seal(purpose: SigningPurpose, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(purpose, body)}`;
}

/** The payload, or null when the token is malformed or was not signed by us for this purpose. */
export function unseal(purpose: SigningPurpose, token: string): unknown {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(purpose, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

function mac(purpose: SigningPurpose, body: string) {
  return createHmac("sha256", derivedKey(purpose)).update(body).digest("base64url").slice(0, 22);
}
