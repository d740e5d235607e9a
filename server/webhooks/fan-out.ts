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
 * 3. Messages are enqueued like every other (messages.ts): only a chain's
 *    head is ready for the dispatcher, decided under the chain's lock.
 * 4. Events that are visible but not yet settled (an older transaction is
 *    still running) are looked at again a few milliseconds later, in the
 *    same job: such transactions are usually about to end, and a follow-up
 *    job dated in the future would wait for graphile-worker's poll. Still
 *    unsettled after `settleWaitsMs`, or more than one batch: a follow-up run.
 * 5. Should a company's job be lost anyway (failed for good, or completed by
 *    a worker wrongly taken for dead), the per-minute maintenance finds the
 *    companies whose settled history is past their position and asks again.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { fanOutPositions, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { enqueueFanOut } from "@/server/jobs/queue";
import { enqueueMessages, eventMessage, type HistoryEventRow, historyEventOf, webhookTakes } from "./messages";

const batchSize = 1000;
/** The pauses before looking again, in the same job, at events an older transaction still keeps unsettled. */
const settleWaitsMs = [2, 5, 10, 20, 40];
/** Then how soon a follow-up job looks again. */
const unsettledRetryMs = 100;

type HistoryRow = HistoryEventRow & { settled: boolean; horizon: string };

export async function fanOutCompany(ctx: DomainContext, companyId: string): Promise<{ created: number }> {
  let created = 0;
  for (const waitMs of [...settleWaitsMs, null]) {
    const run = await retryOnDeadlock(() => runFanOut(ctx, companyId, waitMs !== null));
    created += run.created;
    if (!run.waitForUnsettled || waitMs === null) break;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return { created };
}

/** One run; with `mayWait`, unsettled events are left to the caller's next run instead of a follow-up job. */
async function runFanOut(ctx: DomainContext, companyId: string, mayWait: boolean): Promise<{ created: number; waitForUnsettled: boolean }> {
  return ctx.db.transaction(async (tx) => {
    await tx.insert(fanOutPositions).values({ companyId }).onConflictDoNothing();
    const [position] = await tx.select().from(fanOutPositions).where(eq(fanOutPositions.companyId, companyId)).for("update");
    const rows = [...(await tx.execute<HistoryRow>(historyAfterStatement(companyId, position!)))];
    const settled = rows.filter((row) => row.settled).slice(0, batchSize);
    const targets =
      settled.length === 0
        ? []
        : await tx
            .select()
            .from(webhooks)
            .where(and(eq(webhooks.companyId, companyId), eq(webhooks.enabled, true)));
    const now = ctx.clock.now();
    const messages = settled
      .map(historyEventOf)
      .flatMap((event) => targets.filter((webhook) => webhookTakes(webhook, event)).map((webhook) => eventMessage(ctx.newId, webhook, event)));
    const created = (await enqueueMessages(tx, messages, now)).length;

    // Caught up: everything below the horizon has been seen, so the next run
    // can start there instead of reading the same events again.
    const last = settled.at(-1);
    const caughtUp = settled.length === rows.length;
    const next = caughtUp && rows.length > 0 ? { txId: BigInt(rows[0]!.horizon), seq: 0n } : last ? { txId: BigInt(last.tx), seq: BigInt(last.seq) } : null;
    if (next)
      await tx
        .update(fanOutPositions)
        .set({ ...next, updatedAt: now })
        .where(eq(fanOutPositions.companyId, companyId));
    const full = settled.length === batchSize;
    const waitForUnsettled = !caughtUp && !full && mayWait;
    if (!caughtUp && !waitForUnsettled) await enqueueFanOut(tx, companyId, { followUpInMs: full ? 0 : unsettledRetryMs });
    return { created, waitForUnsettled };
  });
}

/** The company's next events after its position, each saying whether it is settled (exported for the query-plan tests). */
export function historyAfterStatement(companyId: string, position: { txId: bigint; seq: bigint }) {
  return sql`
    with horizon as materialized (select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as xmin)
    select e.id, e.candidate_id, e.interview_id, e.type, e.tx_id::text as tx, e.seq::text as seq, e.created_at,
           e.tx_id < h.xmin as settled, h.xmin::text as horizon
    from horizon h join events e on true
    where e.company_id = ${companyId} and (e.tx_id, e.seq) > (${position.txId.toString()}::bigint, ${position.seq.toString()}::bigint)
    order by e.tx_id, e.seq
    limit ${batchSize + 1}`;
}

/** Companies with settled events not yet fanned out (invariant 5). */
export async function companiesBehind(db: Executor): Promise<string[]> {
  const rows = await db.execute<{ company_id: string }>(sql`
    with horizon as materialized (select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as xmin)
    select c.id as company_id
    from horizon h, companies c left join fan_out_positions p on p.company_id = c.id
    where exists (
      select 1 from events e
      where e.company_id = c.id
        and (e.tx_id, e.seq) > (coalesce(p.tx_id, 0), coalesce(p.seq, 0))
        and e.tx_id < h.xmin
    )`);
  return [...rows].map((row) => row.company_id);
}
