/**
 * Turns a company's history into messages: one per matching enabled webhook
 * and event. A webhook disabled at that moment gets nothing.
 *
 * 1. The history is read the way GET /v1/events reads it: in (tx_id, seq)
 *    order, after the company's position (`fan_out_positions`), which then
 *    moves to the last event read. So messages are created in history order,
 *    and an event committed later can never fall behind the position: it
 *    sorts after every event visible now (server/domain/history-lock.ts).
 * 2. No transaction is held open while it reads: the first round trip reads
 *    the position with the events after it (and, at the same time on another
 *    connection, the company's enabled webhooks); then one transaction takes
 *    the chains' locks and, in one statement, moves the position only if it
 *    is still where the first read it, and queues the messages only if it
 *    moved. Runs for one company so take
 *    turns (the loser reads again, unless the winner moved the position
 *    past every event it read), and it does not matter in which order, or
 *    how many at once, their jobs run (a crashed or retried job cannot
 *    reorder anything). A repeated event adds nothing (one message per
 *    webhook and event).
 * 3. A webhook's conditions (conditions.ts) are checked here: an event that
 *    does not match becomes no message for it, so it holds nothing back.
 *    Scores are read (one more statement) only when a webhook's conditions
 *    need them.
 * 4. Messages are queued like every other (queue.ts), at the tail of their
 *    chains, under the chains' locks.
 * 5. More than one batch waiting: a follow-up run, at once (a third statement).
 * 6. Should a company's job be lost anyway (failed for good, or completed by
 *    a worker wrongly taken for dead), the per-minute maintenance finds the
 *    companies whose history is past their position and asks again.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { executePrepared } from "@/db/prepared";
import { candidates, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { enqueueFanOut } from "@/server/jobs/queue";
import { type ConditionFacts, conditionsHold, needsScores, scoreConditionTypes } from "./conditions";
import { eventMessage, type HistoryEvent, type HistoryEventRow, historyEventOf, webhookTakes } from "./messages";
import { enqueueMessages } from "./queue";

const batchSize = 1000;

/** The position, and an event after it (all its columns null when there is none). */
type PositionedRow = { position_tx: string; position_seq: string } & HistoryEventRow;

export async function fanOutCompany(ctx: DomainContext, companyId: string): Promise<{ created: number }> {
  for (;;) {
    const [rows, targets] = await Promise.all([
      executePrepared<PositionedRow>(ctx.db, historyAfterPositionStatement(companyId)),
      ctx.db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.companyId, companyId), eq(webhooks.enabled, true))),
    ]);
    const position = { txId: rows[0]!.position_tx, seq: rows[0]!.position_seq };
    const events = rows.filter((row) => row.id !== null);
    const batch = events.slice(0, batchSize);
    const last = batch.at(-1);
    if (!last) return { created: 0 };
    const now = ctx.clock.now();
    const checked = batch.map((row) => ({ event: historyEventOf(row), statusTo: row.status_to ?? null }));
    const scores = targets.some((webhook) => needsScores(webhook.conditions))
      ? await candidateScores(
          ctx.db,
          checked.map(({ event }) => event),
        )
      : new Map();
    const messages = checked.flatMap(({ event, statusTo }) => {
      const facts: ConditionFacts = { statusTo, ...(scores.get(event.candidateId) ?? { score: null, recommendation: null }) };
      return targets
        .filter((webhook) => webhookTakes(webhook, event) && conditionsHold(webhook.conditions, event.type, facts))
        .map((webhook) => eventMessage(ctx.newId, webhook, event));
    });
    const moved = sql`
      insert into fan_out_positions as p (company_id, tx_id, seq, updated_at)
      values (${companyId}, ${last.tx}::bigint, ${last.seq}::bigint, ${now.toISOString()}::timestamptz)
      on conflict (company_id) do update set tx_id = excluded.tx_id, seq = excluded.seq, updated_at = excluded.updated_at
        where p.tx_id = ${position.txId}::bigint and p.seq = ${position.seq}::bigint
      returning 1`;
    const result = await retryOnDeadlock(() => ctx.db.transaction((tx) => enqueueMessages(tx, messages, now, moved)));
    if (!result.allowed) {
      // Another run moved the position first. To this run's last event or past it: each event this run read is fanned
      // out, and any committed since has a job of its own, so it stops (several workers' runs for one company each read
      // again, and waited in turn for the position's lock, for nothing). Short of it: read again from where it stands.
      if (events.length <= batchSize && (await positionReached(ctx.db, companyId, last))) return { created: 0 };
      continue;
    }
    if (events.length > batchSize) await enqueueFanOut(ctx.db, companyId, { followUp: true });
    return { created: result.ids.length };
  }
}

/** Whether the company's position stands at `event` or after it. */
async function positionReached(db: Executor, companyId: string, event: { tx: string; seq: string }) {
  const [row] = await executePrepared<{ reached: boolean }>(
    db,
    sql`select exists (
      select from fan_out_positions p where p.company_id = ${companyId} and (p.tx_id, p.seq) >= (${event.tx}::bigint, ${event.seq}::bigint)) as reached`,
  );
  return row!.reached;
}

/** The current score and recommendation of the candidates of the batch's scored and ready events: what a score condition checks. */
async function candidateScores(db: Executor, events: HistoryEvent[]) {
  const ids = [...new Set(events.filter((event) => scoreConditionTypes.includes(event.type)).map((event) => event.candidateId))];
  if (ids.length === 0) return new Map<string, Pick<ConditionFacts, "score" | "recommendation">>();
  const rows = await db
    .select({ id: candidates.id, score: candidates.score, recommendation: candidates.recommendation })
    .from(candidates)
    .where(inArray(candidates.id, ids));
  return new Map(rows.map((row) => [row.id, { score: row.score, recommendation: row.recommendation }]));
}

/**
 * The company's position and its next events after it, one more than a
 * batch; one row with null event columns when none is new (exported for the
 * query-plan tests).
 */
export function historyAfterPositionStatement(companyId: string) {
  return sql`
    with position as (
      select coalesce(max(p.tx_id), 0) as tx_id, coalesce(max(p.seq), 0) as seq from fan_out_positions p where p.company_id = ${companyId}
    )
    select pos.tx_id::text as position_tx, pos.seq::text as position_seq,
      e.id, e.candidate_id, e.interview_id, e.type, e.tx_id::text as tx, e.seq::text as seq, e.created_at, e.change, e.status_to
    from position pos
    left join lateral (
      select e.id, e.candidate_id, e.interview_id, e.type, e.tx_id, e.seq, e.created_at, e.change, e.change ->> 'to' as status_to
      from events e
      where e.company_id = ${companyId} and (e.tx_id, e.seq) > (pos.tx_id, pos.seq)
      order by e.tx_id, e.seq
      limit ${batchSize + 1}
    ) e on true
    order by e.tx_id, e.seq`;
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
