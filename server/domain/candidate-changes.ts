/**
 * The one way a candidate changes: take the company's history lock (first
 * thing: history-lock.ts), lock the row, decide the change, settle the
 * result, write the row and its API JSON (stored-candidates.ts), and append the events the change produces together
 * with the company's fan-out job, all in one transaction.
 */
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { type ChangedBy, candidates, events, type IncompleteReason } from "@/db/schema";
import { enqueueFanOut } from "@/server/jobs/queue";
import { candidateJsonText } from "@/server/read/candidates";
import type { CandidateRow } from "./candidate-row";
import type { DomainContext } from "./context";
import { notFound } from "./errors";
import { type EventDraft, eventsForChange } from "./event-rules";
import { lockCompanyHistory } from "./history-lock";
import { settleResult } from "./result";
import { candidateSource, readCandidateExtras } from "./stored-candidates";

export const systemActor: ChangedBy = { type: "system", name: "System" };

export type Decision = {
  patch: Partial<CandidateRow>;
  /** Who made a status change, when the decision makes one. */
  by?: ChangedBy;
  /** A reason that makes the result final and incomplete. */
  incomplete?: IncompleteReason;
};

export type Transaction = Parameters<Parameters<DomainContext["db"]["transaction"]>[0]>[0];

export async function changeCandidate(
  ctx: DomainContext,
  candidateId: string,
  decide: (candidate: CandidateRow, tx: Transaction, now: Date) => Decision | Promise<Decision>,
): Promise<CandidateRow> {
  return ctx.db.transaction(async (tx) => {
    // Read without a lock, so the transaction has no id yet when it takes the
    // history lock; a candidate never changes company.
    const [owner] = await tx.select({ companyId: candidates.companyId }).from(candidates).where(eq(candidates.id, candidateId));
    if (!owner) throw notFound("candidate", candidateId);
    await lockCompanyHistory(tx, [owner.companyId]);
    const [current] = await tx.select().from(candidates).where(eq(candidates.id, candidateId)).for("update");
    if (!current) throw notFound("candidate", candidateId);
    const now = ctx.clock.now();
    const decision = await decide(current, tx, now);
    const merged: CandidateRow = { ...current, ...decision.patch };
    const patch = { ...decision.patch, ...settleResult(merged, now, decision.incomplete), updatedAt: now };
    const changed: CandidateRow = { ...current, ...patch };
    const apiJson = candidateJsonText(candidateSource(changed, await readCandidateExtras(tx, candidateId)));
    const next: CandidateRow = { ...changed, apiJson };
    await tx
      .update(candidates)
      .set({ ...patch, apiJson })
      .where(eq(candidates.id, candidateId));
    await appendEvents(ctx, tx, [{ candidate: next, drafts: eventsForChange(current, next, decision.by ?? systemActor), at: now }]);
    return next;
  });
}

/** The history row of one event the rules produced. */
export const eventRow = (ctx: Pick<DomainContext, "newId">, candidate: EventBatch["candidate"], draft: EventDraft, at: Date) => ({
  id: ctx.newId("event"),
  companyId: candidate.companyId,
  candidateId: candidate.id,
  interviewId: candidate.interviewId,
  type: draft.type,
  change: draft.change,
  createdAt: at,
});

export type EventBatch = { candidate: Pick<CandidateRow, "id" | "companyId" | "interviewId">; drafts: EventDraft[]; at: Date };

/**
 * Appends events and, in the same transaction, the job that fans them out to
 * webhooks: the job exists exactly when the events do. The transaction holds
 * the history lock of every company in `batches` (history-lock.ts).
 */
export async function appendEvents(ctx: DomainContext, tx: Executor, batches: EventBatch[]): Promise<string[]> {
  const rows = batches.flatMap(({ candidate, drafts, at }) => drafts.map((draft) => eventRow(ctx, candidate, draft, at)));
  if (rows.length === 0) return [];
  await tx.insert(events).values(rows);
  // Fan-out reads the history itself, in order, from where it left off: the
  // job only says that this company has something new.
  for (const companyId of new Set(rows.map((row) => row.companyId))) await enqueueFanOut(tx, companyId);
  return rows.map((row) => row.id);
}
