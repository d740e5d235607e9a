/**
 * Opaque list cursors. A cursor is sealed with a key derived from APP_SECRET
 * and names the list it belongs to, the ordering and the company: a cursor
 * that was altered, or comes from another list or company, is refused.
 *
 * Reading one takes two steps, because a request's parameters are checked
 * before anything knows who is asking: `decodeCursor` checks what the cursor
 * says about itself, `positionFor` whether it is the reader's company's.
 */
import { seal, unseal } from "./signing";

export type CursorKind = "interviews" | "candidates:submitted" | "candidates:started" | "events" | "webhook-messages";

export type Cursor<T> = { kind: CursorKind; companyId: string; position: T };

export type CursorCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

type Sealed = { k: CursorKind; c: string; p: unknown };

export function encodeCursor(kind: CursorKind, companyId: string, position: unknown): string {
  return seal("cursor", { k: kind, c: companyId, p: position } satisfies Sealed);
}

/** The cursor `token` stands for, if we sealed it for one of `kinds`. */
export function decodeCursor<T>(kinds: CursorKind[], token: string): CursorCheck<Cursor<T>> {
  const sealed = unseal("cursor", token) as Sealed | null;
  if (!sealed || typeof sealed !== "object" || !("p" in sealed)) {
    return { ok: false, reason: "is not a cursor this API returned (it may have been changed)" };
  }
  if (!kinds.includes(sealed.k)) return { ok: false, reason: "belongs to another list or ordering" };
  return { ok: true, value: { kind: sealed.k, companyId: sealed.c, position: sealed.p as T } };
}

/** Where a decoded cursor points, if it belongs to `companyId`. */
export function positionFor<T>(cursor: Cursor<T>, companyId: string): CursorCheck<T> {
  if (cursor.companyId !== companyId) return { ok: false, reason: "belongs to another account" };
  return { ok: true, value: cursor.position };
}
