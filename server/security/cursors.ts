/**
 * Opaque list cursors. A cursor is sealed with a key derived from APP_SECRET
 * and names the list it belongs to, the ordering and the company: a cursor
 * that was altered, or comes from another list or company, is refused.
 */
import { seal, unseal } from "./signing";

export type CursorKind = "interviews" | "candidates:submitted" | "candidates:started" | "events" | "webhook-messages";

type Sealed = { k: CursorKind; c: string; p: unknown };

export function encodeCursor(kind: CursorKind, companyId: string, position: unknown): string {
  return seal("cursor", { k: kind, c: companyId, p: position } satisfies Sealed);
}

export type CursorCheck<T> = { ok: true; position: T } | { ok: false; reason: string };

export function decodeCursor<T>(kinds: CursorKind[], companyId: string, cursor: string): CursorCheck<T> {
  const sealed = unseal("cursor", cursor) as Sealed | null;
  if (!sealed || typeof sealed !== "object" || !("p" in sealed)) {
    return { ok: false, reason: "is not a cursor this API returned (it may have been changed)" };
  }
  if (sealed.c !== companyId) return { ok: false, reason: "belongs to another account" };
  if (!kinds.includes(sealed.k)) return { ok: false, reason: "belongs to another list or ordering" };
  return { ok: true, position: sealed.p as T };
}
