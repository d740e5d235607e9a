/**
 * Opaque, random, prefixed ids (`cand_4sJ9…`). The prefix tells a reader what
 * an id points at; the rest is 128 bits of randomness in base58, so ids never
 * leak counts or creation order.
 */
import { randomBytes } from "node:crypto";

export const idPrefixes = {
  company: "co",
  user: "user",
  apiKey: "key",
  interview: "int",
  question: "q",
  candidate: "cand",
  file: "file",
  event: "evt",
  webhook: "wh",
  message: "msg",
  attempt: "att",
  email: "eml",
} as const;

export type IdKind = keyof typeof idPrefixes;

const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = "";
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text.padStart(22, "1");
}

/** Produces the random part of ids; the simulator swaps in a seeded one. */
export type RandomBytes = (size: number) => Uint8Array;

export function createIdGenerator(random: RandomBytes = randomBytes) {
  return (kind: IdKind) => `${idPrefixes[kind]}_${base58(random(16))}`;
}

export type IdGenerator = ReturnType<typeof createIdGenerator>;

export const newId: IdGenerator = createIdGenerator();
