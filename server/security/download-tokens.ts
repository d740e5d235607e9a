/**
 * Download tokens: a signed name of one file of one company and an expiry,
 * nothing else, so a link works without the API key only for that file and
 * only until then.
 */
import { seal, unseal } from "./signing";

type Sealed = { f: string; c: string; x: number };

export type DownloadTarget = { fileId: string; companyId: string };

export function signDownloadToken(target: DownloadTarget, expiresAt: Date): string {
  return seal("download", { f: target.fileId, c: target.companyId, x: expiresAt.getTime() } satisfies Sealed);
}

export function readDownloadToken(token: string, now: Date): DownloadTarget | "invalid" | "expired" {
  const link = unseal("download", token) as Sealed | null;
  if (!link || typeof link.f !== "string" || typeof link.c !== "string" || typeof link.x !== "number") return "invalid";
  if (now.getTime() >= link.x) return "expired";
  return { fileId: link.f, companyId: link.c };
}
