/**
 * Turns a company's history into messages: one per matching enabled webhook
 * and event. A webhook disabled at that moment gets nothing.
 *
 * 1. The history is read the way GET /v1/events reads it: in (tx_id, seq)
 *    order, after the company's position (`fan_out_positions`), which then
 *    moves to the last event read. So messages are created in history order,
 *    and an event committed later can never fall behind the position: it
 *    sorts after every event visible now (server/domain/history-lock.ts).
 * 2. The position row is locked for the run and moved in the same transaction
 *    as the messages: runs for one company take turns, and it does not matter
 *    in which order, or how many at once, their jobs run (a crashed or retried
 *    job cannot reorder anything). A repeated event adds nothing (one message
 *    per webhook and event).
 * 3. A webhook's conditions (conditions.ts) are checked here: an event that
 *    does not match becomes no message for it, so it holds nothing back.
 *    Scores are read only when a webhook's conditions need them.
 * 4. Messages are enqueued like every other (messages.ts): only a chain's
 *    head is ready for the dispatcher, decided under the chain's lock.
 * 5. More than one batch waiting: a follow-up run, at once.
 * 6. Should a company's job be lost anyway (failed for good, or completed by
 *    a worker wrongly taken for dead), the per-minute maintenance finds the
 *    companies whose history is past their position and asks again.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { candidates, fanOutPositions, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { enqueueFanOut } from "@/server/jobs/queue";
import { type ConditionFacts, conditionsHold, needsScores, scoreConditionTypes } from "./conditions";
import { enqueueMessages, eventMessage, type HistoryEvent, type HistoryEventRow, historyEventOf, webhookTakes } from "./messages";

const batchSize = 1000;

export async function fanOutCompany(ctx: DomainContext, companyId: string): Promise<{ created: number }> {
  return retryOnDeadlock(() =>
    ctx.db.transaction(async (tx) => {
      await tx.insert(fanOutPositions).values({ companyId }).onConflictDoNothing();
      const [position] = await tx.select().from(fanOutPositions).where(eq(fanOutPositions.companyId, companyId)).for("update");
      const rows = [...(await tx.execute<HistoryEventRow>(historyAfterStatement(companyId, position!)))];
      const batch = rows.slice(0, batchSize);
      const last = batch.at(-1);
      if (!last) return { created: 0 };
      const targets = await tx
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.companyId, companyId), eq(webhooks.enabled, true)));
      const now = ctx.clock.now();
      const events = batch.map((row) => ({ event: historyEventOf(row), statusTo: row.status_to ?? null }));
      const scores = targets.some((webhook) => needsScores(webhook.conditions))
        ? await candidateScores(
            tx,
            events.map(({ event }) => event),
          )
        : new Map();
      const messages = events.flatMap(({ event, statusTo }) => {
        const facts: ConditionFacts = { statusTo, ...(scores.get(event.candidateId) ?? { score: null, recommendation: null }) };
        return targets
          .filter((webhook) => webhookTakes(webhook, event) && conditionsHold(webhook.conditions, event.type, facts))
          .map((webhook) => eventMessage(ctx.newId, webhook, event));
      });
      const created = (await enqueueMessages(tx, messages, now)).length;
      await tx
        .update(fanOutPositions)
        .set({ txId: BigInt(last.tx), seq: BigInt(last.seq), updatedAt: now })
        .where(eq(fanOutPositions.companyId, companyId));
      if (rows.length > batchSize) await enqueueFanOut(tx, companyId, { followUp: true });
      return { created };
    }),
  );
}

/** The current score and recommendation of the candidates of the batch's scored and ready events: what a score condition checks. */
async function candidateScores(tx: Executor, events: HistoryEvent[]) {
  const ids = [...new Set(events.filter((event) => scoreConditionTypes.includes(event.type)).map((event) => event.candidateId))];
  if (ids.length === 0) return new Map<string, Pick<ConditionFacts, "score" | "recommendation">>();
  const rows = await tx
    .select({ id: candidates.id, score: candidates.score, recommendation: candidates.recommendation })
    .from(candidates)
    .where(inArray(candidates.id, ids));
  return new Map(rows.map((row) => [row.id, { score: row.score, recommendation: row.recommendation }]));
}

/** The company's next events after its position, one more than a batch (exported for the query-plan tests). */
export function historyAfterStatement(companyId: string, position: { txId: bigint; seq: bigint }) {
  return sql`
    select e.id, e.candidate_id, e.interview_id, e.type, e.tx_id::text as tx, e.seq::text as seq, e.created_at, e.change ->> 'to' as status_to
    from events e
    where e.company_id = ${companyId} and (e.tx_id, e.seq) > (${position.txId.toString()}::bigint, ${position.seq.toString()}::bigint)
    order by e.tx_id, e.seq
    limit ${batchSize + 1}`;
}

/** Companies with events not yet fanned out (invariant 5). */
export async function companiesBehind(db: Executor): Promise<string[]> {
  const rows = await db.execute<{ company_id: string }>(sql`
    select c.id as company_id
    from companies c left join fan_out_positions p on p.company_id = c.id
    where exists (
      select 1 from events e
      where e.company_id = c.id and (e.tx_id, e.seq) > (coalesce(p.tx_id, 0), coalesce(p.seq, 0))
    )`);
  return [...rows].map((row) => row.company_id);
}
