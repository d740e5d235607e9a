/**
 * The delivery engine's invariants (docs/webhook-engine.md), checked in one
 * query over the queue and the log: after every webhook test
 * (`useWebhookTestbed`), and after each step of the model-based test.
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Executor } from "@/db/client";

export type QueueViolations = {
  /** A message the log says is waiting that has no queue row. */
  waitingWithoutRow: string[];
  /** A queue row whose message the log says has ended (or is not there). */
  rowWithoutWaiting: string[];
  /** A chain with queued messages whose count of ready or running ones is not exactly one. */
  chainsWithoutOneHead: string[];
  /** A chain head (ready or running) that is not the chain's lowest position. */
  headsBehindEarlier: string[];
  /** A queue row whose copy of what its message sends (company, event, sample body) differs from the log's. */
  copiesUnlikeTheLog: string[];
};

export async function queueViolations(db: Executor): Promise<QueueViolations> {
  const [row] = await db.execute<QueueViolations>(sql`
    select
      array(select m.id from webhook_messages m
        where m.status = 'pending' and not exists (select from webhook_queue q where q.message_id = m.id and q.history_at = m.history_at)) as "waitingWithoutRow",
      array(select q.message_id from webhook_queue q
        where not exists (select from webhook_messages m where m.id = q.message_id and m.history_at = q.history_at and m.status = 'pending')) as "rowWithoutWaiting",
      array(select webhook_id || '/' || candidate_id from webhook_queue where candidate_id is not null
        group by webhook_id, candidate_id having count(*) filter (where state <> 'held') <> 1) as "chainsWithoutOneHead",
      array(select h.message_id from webhook_queue h
        where h.state <> 'held' and h.candidate_id is not null
          and exists (select from webhook_queue e where e.webhook_id = h.webhook_id and e.candidate_id = h.candidate_id and e.position < h.position)) as "headsBehindEarlier",
      array(select q.message_id from webhook_queue q join webhook_messages m on m.id = q.message_id and m.history_at = q.history_at
        where (q.company_id, q.event_id, q.event_type) is distinct from (m.company_id, m.event_id, m.event_type)
          or q.sample_body is distinct from m.sample_body
          or (m.origin = 'event' and q.event_at is distinct from m.history_at)) as "copiesUnlikeTheLog"`);
  return row!;
}

export async function assertQueueInvariants(db: Executor) {
  expect(await queueViolations(db)).toEqual({
    waitingWithoutRow: [],
    rowWithoutWaiting: [],
    chainsWithoutOneHead: [],
    headsBehindEarlier: [],
    copiesUnlikeTheLog: [],
  });
}
