/**
 * Turns a company's history into messages: one per matching enabled webhook
 * and event. A webhook disabled at that moment gets nothing.
 *
 * 1. The history is read the way GET /v1/events reads it: in (tx_id, seq)
 *    order, only from transactions older than every one still running, after
 *    the company's position (`fan_out_positions`). So messages are created in
 *    history order, and an event committed late by an earlier transaction can
 *    never fall behind the position.
 * 2. The position row is locked for the run and moved in the same transaction
 *    as the messages: runs for one company take turns, and it does not matter
 *    in which order, or how many at once, their jobs run (a crashed or retried
 *    job cannot reorder anything). A repeated event adds nothing (one message
 *    per webhook and event).
 * 3. Only a chain's first waiting message gets a delivery job; the rest are
 *    released one by one as each predecessor finishes (deliver.ts). The
 *    chain's waiting messages are locked before deciding, so a predecessor
 *    finishing at this moment either is seen finished here, or waits for this
 *    commit and then sees, and releases, the new message.
 * 4. Events that are visible but not yet settled (an older transaction is
 *    still running), or more than one batch, are left for a follow-up run.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { type EventType, fanOutPositions, webhookMessages, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { enqueueFanOut, scheduleDelivery } from "@/server/jobs/queue";

const batchSize = 1000;
/** How soon to look again at events an older, still running transaction keeps unsettled. */
const unsettledRetryMs = 100;

type HistoryRow = { id: string; candidate_id: string; interview_id: string; type: EventType; tx: string; seq: string; settled: boolean; horizon: string };

export async function fanOutCompany(ctx: DomainContext, companyId: string): Promise<{ created: number }> {
  return ctx.db.transaction(async (tx) => {
    await tx.insert(fanOutPositions).values({ companyId }).onConflictDoNothing();
    const [position] = await tx.select().from(fanOutPositions).where(eq(fanOutPositions.companyId, companyId)).for("update");
    const rows = [
      ...(await tx.execute<HistoryRow>(sql`
        with horizon as materialized (select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as xmin)
        select e.id, e.candidate_id, e.interview_id, e.type, e.tx_id::text as tx, e.seq::text as seq,
               e.tx_id < h.xmin as settled, h.xmin::text as horizon
        from horizon h join events e on true
        where e.company_id = ${companyId} and (e.tx_id, e.seq) > (${position!.txId.toString()}::bigint, ${position!.seq.toString()}::bigint)
        order by e.tx_id, e.seq
        limit ${batchSize + 1}`)),
    ];
    const settled = rows.filter((row) => row.settled).slice(0, batchSize);
    const targets = settled.length === 0 ? [] : await tx.select().from(webhooks).where(and(eq(webhooks.companyId, companyId), eq(webhooks.enabled, true)));
    const now = ctx.clock.now();
    const messages = settled.flatMap((event) =>
      targets
        .filter((webhook) => webhook.eventTypes.includes(event.type) && (webhook.allInterviews || webhook.interviewIds.includes(event.interview_id)))
        .map((webhook) => ({
          id: ctx.newId("message"),
          companyId,
          webhookId: webhook.id,
          origin: "event" as const,
          eventId: event.id,
          eventType: event.type,
          candidateId: event.candidate_id,
          eventSeq: BigInt(event.seq),
          nextAttemptAt: now,
          createdAt: now,
        })),
    );
    const created = await insertMessages(tx, messages, now);

    // Caught up: everything below the horizon has been seen, so the next run
    // can start there instead of reading the same events again.
    const last = settled.at(-1);
    const caughtUp = settled.length === rows.length;
    const next = caughtUp && rows.length > 0 ? { txId: BigInt(rows[0]!.horizon), seq: 0n } : last ? { txId: BigInt(last.tx), seq: BigInt(last.seq) } : null;
    if (next) await tx.update(fanOutPositions).set({ ...next, updatedAt: now }).where(eq(fanOutPositions.companyId, companyId));
    if (!caughtUp) await enqueueFanOut(tx, companyId, { followUpInMs: settled.length === batchSize ? 0 : unsettledRetryMs });
    return { created };
  });
}

/** Inserts the messages and gives a delivery job to each one that heads its chain (invariant 3). */
async function insertMessages(tx: Executor, rows: Array<typeof webhookMessages.$inferInsert>, now: Date) {
  if (rows.length === 0) return 0;
  const chainOf = (message: { webhookId: string; candidateId: string | null }) => `${message.webhookId}/${message.candidateId}`;
  const waiting = await tx
    .select({ webhookId: webhookMessages.webhookId, candidateId: webhookMessages.candidateId })
    .from(webhookMessages)
    .where(
      and(
        eq(webhookMessages.status, "pending"),
        inArray(webhookMessages.webhookId, [...new Set(rows.map((row) => row.webhookId))]),
        inArray(webhookMessages.candidateId, [...new Set(rows.map((row) => row.candidateId!))]),
      ),
    )
    .orderBy(asc(webhookMessages.id))
    .for("update");
  const busyChains = new Set(waiting.map(chainOf));
  let created = 0;
  for (let offset = 0; offset < rows.length; offset += batchSize) {
    const inserted = await tx
      .insert(webhookMessages)
      .values(rows.slice(offset, offset + batchSize))
      .onConflictDoNothing({ target: [webhookMessages.webhookId, webhookMessages.eventId], where: sql`${webhookMessages.origin} = 'event'` })
      .returning({ id: webhookMessages.id, webhookId: webhookMessages.webhookId, candidateId: webhookMessages.candidateId });
    for (const message of inserted) {
      if (busyChains.has(chainOf(message))) continue;
      busyChains.add(chainOf(message));
      await scheduleDelivery(tx, message.id, now);
    }
    created += inserted.length;
  }
  return created;
}
