/**
 * API keys look like `ivk_<32 base58 chars>`. Only their SHA-256 is stored; a
 * fast hash is right here because the key is 190 bits of randomness, not a
 * password, and it is checked on every request.
 */
import { createHash, randomBytes } from "node:crypto";
import { base58 } from "@/server/ids";

const prefix = "ivk_";

export function generateApiKey() {
  const key = `${prefix}${base58(randomBytes(24))}`;
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, prefix.length + 6) };
}

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** Cheap shape check so malformed keys are refused before any database work. */
export const looksLikeApiKey = (value: string) => /^ivk_[1-9A-HJ-NP-Za-km-z]{20,40}$/.test(value);
