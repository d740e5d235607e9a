/**
 * Signing secrets: `whsec_` and 32 random bytes. Stored encrypted with
 * AES-256-GCM under a key derived from APP_SECRET; never logged.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKey } from "@/server/security/signing";

export const generateSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export function encryptSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey("webhook-secret-encryption"), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

/** A stored secret this service cannot decrypt: saved under another APP_SECRET, or not one of our ciphertexts. */
export class UnreadableSecret extends Error {
  override name = "UnreadableSecret";
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !ciphertext) throw new UnreadableSecret("not a ciphertext of ours");
  const key = derivedKey("webhook-secret-encryption");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch (error) {
    // A tag that does not match under this APP_SECRET, or an IV or tag of the wrong length.
    throw new UnreadableSecret("it does not decrypt under this APP_SECRET", { cause: error });
  }
}
