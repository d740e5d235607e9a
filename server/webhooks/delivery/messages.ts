/**
 * The one way a message enters the log: inserted due now, and ready for the
 * dispatcher when it heads its (webhook, candidate) chain, that is, none of
 * the chain's waiting messages comes before it in the history's order
 * (transaction, then sequence). The rest are `held`, and released one by one
 * as each predecessor finishes (deliver.ts).
 *
 * A chain's waiting messages are found through `webhook_chain_messages`
 * (one index probe; the log has no index of waiting messages), which gets
 * its rows here, in the statement that inserts the messages.
 *
 * The chains' waiting messages are locked before deciding which new message
 * heads its chain, so a predecessor finishing at this moment either is seen
 * finished here, or waits for this commit and then sees, and releases, the
 * new message. Samples belong to no chain and are always ready. An event's
 * second message to the same webhook is skipped (a unique index, which holds
 * because every message of an event has the event's time as `history_at`,
 * the log's partition key).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { executePrepared } from "@/db/prepared";
import type { EventType, webhookMessages, webhooks } from "@/db/schema";
import type { IdGenerator } from "@/server/ids";
import { type Days, everyDay, inDays } from "./log-days";

/** The channel that wakes the dispatchers when messages become ready now; sent with the commit that makes them ready. */
export const readyChannel = "webhook_messages_ready";

export async function announceReady(tx: Executor) {
  await tx.execute(sql.raw(`notify ${readyChannel}`));
}

/**
 * "Still waiting", where the hot path reads or updates a message by its key:
 * `status = ${stillWaiting}`, a parameter rather than the literal. The
 * worker plans these statements once (db/prepared.ts). With the literal,
 * the plan counted waiting messages from the day's statistics, taken when
 * nothing waited (every message delivered): it once chose the log's index
 * of waiting messages over the key (after a burst, readying a batch's chains
 * took 55 ms instead of 0.3), and, with that index gone, still planned the
 * readying with a Materialize (burst-statistics.test.ts).
 */
export const stillWaiting = sql`${"pending"}::text`;

/**
 * The keys of a webhook's waiting messages (webhook-waiting-message-keys.ts),
 * as a set to update the log from: `update webhook_messages m ... from
 * ${waitingMessagesOf(id)} k where m.id = k.message_id and m.history_at =
 * k.history_at`. Unnested from an array, so the planner counts on a few rows
 * and looks each message up by its key, in its one day; joined to the keys
 * as they are, it hashed them and read every day of the log whole. In id
 * order, as every locker of a chain's messages takes them.
 */
export const waitingMessagesOf = (webhookId: string) =>
  sql`unnest(array(select k from webhook_waiting_message_keys k where k.webhook_id = ${webhookId} order by k.message_id))`;

/** A message to add; without `historyAt` (a resend, a sample) it counts from its own creation. */
export type NewMessage = Omit<typeof webhookMessages.$inferInsert, "nextAttemptAt" | "createdAt" | "status" | "attemptCount" | "held">;

/** An event of the history as the log needs it: what it is, whose chain it joins, and its place in the history's order. */
export type HistoryEvent = { id: string; type: EventType; candidateId: string; interviewId: string; txId: bigint; seq: bigint; createdAt: Date };

/**
 * An event row as raw SQL reads it (`e.tx_id::text as tx, e.seq::text as seq`: bigints travel as text; `e.created_at` as drizzle's text);
 * `status_to` (a status change's `change.to`) where a webhook's conditions are checked on it (fan-out.ts).
 */
export type HistoryEventRow = {
  id: string;
  type: EventType;
  candidate_id: string;
  interview_id: string;
  tx: string;
  seq: string;
  created_at: string | Date;
  status_to?: string | null;
};

export const historyEventOf = (row: HistoryEventRow): HistoryEvent => ({
  id: row.id,
  type: row.type,
  candidateId: row.candidate_id,
  interviewId: row.interview_id,
  txId: BigInt(row.tx),
  seq: BigInt(row.seq),
  createdAt: new Date(row.created_at),
});

type WebhookScope = Pick<typeof webhooks.$inferSelect, "id" | "companyId" | "eventTypes" | "allInterviews" | "interviewIds">;

/** Whether a webhook is sent an event: one of its event types, from an interview it covers. */
export const webhookTakes = (webhook: WebhookScope, event: HistoryEvent) =>
  webhook.eventTypes.includes(event.type) && (webhook.allInterviews || webhook.interviewIds.includes(event.interviewId));

/** The message that brings an event of the history to a webhook (fan-out, sending past events, the demo's history). */
export const eventMessage = (newId: IdGenerator, webhook: WebhookScope, event: HistoryEvent): NewMessage => ({
  id: newId("message"),
  companyId: webhook.companyId,
  webhookId: webhook.id,
  origin: "event",
  eventId: event.id,
  eventType: event.type,
  candidateId: event.candidateId,
  eventTxId: event.txId,
  eventSeq: event.seq,
  historyAt: event.createdAt,
});

type Chain = { webhookId: string; candidateId?: string | null };
export type LinkedChain = { webhookId: string; candidateId: string };

/** Inserts the messages, due at `now`, and makes each chain's head ready; returns the ids inserted. One statement. */
export async function enqueueMessages(tx: Executor, messages: NewMessage[], now: Date): Promise<string[]> {
  if (messages.length === 0) return [];
  const [row] = await executePrepared<{ ids: string[] }>(tx, enqueueStatement(messages, now));
  return row!.ids;
}

/**
 * The one statement that enqueues messages (exported for fan-out, which adds
 * its position's move as `allowed`: nothing is inserted unless that CTE
 * returns a row).
 *
 * The chains' waiting messages are locked (in id order, as every locker of a
 * chain does), and ranked with the new ones as the locked rows are now: a
 * head finished by a recording that committed while this waited for its lock
 * is no longer pending, so the new message after it heads the chain. An
 * event's second message to the same webhook is left out before ranking.
 */
export function enqueueStatement(messages: NewMessage[], now: Date, allowed: SQL = sql`select 1`) {
  const at = now.toISOString();
  const rows = messages.map((message, ordinal) => ({
    id: message.id,
    company_id: message.companyId,
    webhook_id: message.webhookId,
    origin: message.origin,
    event_id: message.eventId,
    event_type: message.eventType,
    candidate_id: message.candidateId ?? null,
    event_tx_id: message.eventTxId?.toString() ?? null,
    event_seq: message.eventSeq?.toString() ?? null,
    is_test: message.isTest ?? false,
    sample_body: message.sampleBody ?? null,
    resent_from: message.resentFrom ?? null,
    history_at: message.historyAt?.toISOString() ?? null,
    ordinal,
  }));
  return sql`
    with allowed as (${allowed}), incoming as (
      select n.* from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as n(
        id text, company_id text, webhook_id text, origin text, event_id text, event_type text, candidate_id text, event_tx_id bigint, event_seq bigint,
        is_test boolean, sample_body jsonb, resent_from text, history_at timestamptz, ordinal int)
      where exists (select from allowed)
        and not (n.origin = 'event' and exists (
          select from webhook_messages d
          where d.webhook_id = n.webhook_id and d.event_id = n.event_id and d.history_at = n.history_at and d.origin = 'event'))
    ), waiting as (
      -- Each chain's messages where webhook_chain_messages says they are, each read and locked by its key in its one day (laterals: never a
      -- join over every day's rows), chains and messages in a fixed order.
      select p.* from (select distinct webhook_id, candidate_id from incoming where candidate_id is not null order by 1, 2) c
      cross join lateral (
        select k.message_id, k.history_at from webhook_chain_messages k
        where k.webhook_id = c.webhook_id and k.candidate_id = c.candidate_id
        order by k.message_id
      ) k
      cross join lateral (
        select p.id, p.history_at, p.webhook_id, p.candidate_id, p.event_tx_id, p.event_seq, p.seq
        from webhook_messages p
        where p.id = k.message_id and p.history_at = k.history_at and p.status = ${stillWaiting}
        for update
      ) p
    ), ranked as (
      select r.id, r.history_at, r.ordinal,
        row_number() over (partition by r.webhook_id, r.candidate_id order by r.event_tx_id, r.event_seq, r.seq nulls last, r.ordinal) as place
      from (
        select id, history_at, webhook_id, candidate_id, event_tx_id, event_seq, seq, null::int as ordinal from waiting
        union all
        select id, null, webhook_id, candidate_id, event_tx_id, event_seq, null, ordinal from incoming where candidate_id is not null
      ) r
    ), inserted as (
      insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, event_tx_id, event_seq, is_test, sample_body,
        resent_from, status, attempt_count, next_attempt_at, held, created_at, history_at)
      select n.id, n.company_id, n.webhook_id, n.origin, n.event_id, n.event_type, n.candidate_id, n.event_tx_id, n.event_seq, n.is_test, n.sample_body,
        n.resent_from, 'pending', 0, ${at}::timestamptz, coalesce(r.place > 1, false), ${at}::timestamptz, coalesce(n.history_at, ${at}::timestamptz)
      from incoming n left join ranked r on r.ordinal = n.ordinal
      order by n.ordinal
      on conflict (webhook_id, event_id, history_at) where origin = 'event' do nothing
      returning id, history_at, webhook_id, next_attempt_at, seq, held, candidate_id
    ), chained as (
      insert into webhook_chain_messages (message_id, history_at, webhook_id, candidate_id)
      select id, history_at, webhook_id, candidate_id from inserted where candidate_id is not null
    ), flipped as (
      update webhook_messages m set held = r.place > 1
      from ranked r
      where r.ordinal is null and m.id = r.id and m.history_at = r.history_at and m.held <> (r.place > 1)
      returning m.id, m.history_at, m.webhook_id, m.next_attempt_at, m.seq, m.held
    ), ${readySetFollows(sql`select id, history_at, webhook_id, next_attempt_at, seq, held from inserted union all select * from flipped`, at)}
    select coalesce((select array_agg(id) from inserted), '{}') as ids, (select count(*) from allowed)::int as allowed,
      (select count(*) from (select pg_notify(${readyChannel}, '') from entered limit 1) announced)::int as announced`;
}

/**
 * The ready set follows the chain heads in `changed` (rows of
 * `webhook_messages` whose `held` was just set, as id, history_at,
 * webhook_id, next_attempt_at, seq, held): a new head enters the ready set
 * when due, or waits for its retry apart; a message no longer the head
 * leaves both (unless a worker is sending it: its outcome is recorded as usual).
 * CTEs `changed`, `entered`, `retrying`, `unreadied` and `unretried`.
 */
function readySetFollows(changed: SQL, at: string) {
  return sql`changed as (${changed}), entered as (
      insert into webhook_ready_messages (message_id, history_at, webhook_id, due_at, seq)
      select id, history_at, webhook_id, next_attempt_at, seq from changed where not held and next_attempt_at <= ${at}::timestamptz
      on conflict (message_id) do nothing
      returning message_id
    ), retrying as (
      insert into webhook_waiting_retries (message_id, history_at, webhook_id, due_at, seq)
      select id, history_at, webhook_id, next_attempt_at, seq from changed where not held and next_attempt_at > ${at}::timestamptz
      on conflict (message_id) do nothing
    ), unreadied as (
      delete from webhook_ready_messages r using changed c where c.held and r.message_id = c.id and r.leased_at is null
    ), unretried as (
      delete from webhook_waiting_retries r using changed c where c.held and r.message_id = c.id
    )`;
}

/**
 * Makes the first pending message of each chain (in the history's order)
 * the head, and holds the rest; the ready set follows. Run in a fresh
 * statement after a chain's head finishes (deliver.ts), so it sees any
 * message committed while the head was being recorded, and by the
 * maintenance run for a chain left without a head.
 *
 * `days`: where the chains' messages are looked for (log-days.ts), the
 * finished messages' days for the recording. A chain with a waiting message
 * outside them is left alone there and readied again over every day, so
 * every chain is ranked with all its waiting messages.
 */
export async function readyChainHeads(tx: Executor, chains: Chain[], now: Date, days: Days = everyDay): Promise<void> {
  const linked = distinctChains(chains);
  if (linked.length === 0) return;
  const [row] = await executePrepared<{ elsewhere: LinkedChain[] }>(tx, readyChainHeadsStatement(linked, now, days));
  if (row!.elsewhere.length > 0) await readyChainHeads(tx, row!.elsewhere, now);
}

/**
 * Each chain's pending messages, found through webhook_chain_messages, ranked;
 * only rows whose state changes are written; the chains with a waiting
 * message outside `days` are returned as they are (exported for the
 * query-plan tests).
 */
export function readyChainHeadsStatement(linked: LinkedChain[], now: Date, days: Days = everyDay) {
  return sql`
    with chains as (
      select * from unnest(${sql.param(linked.map((chain) => chain.webhookId))}::text[], ${sql.param(linked.map((chain) => chain.candidateId))}::text[]) as c(webhook_id, candidate_id)
    ), elsewhere as (
      select c.* from chains c
      where exists (select from webhook_chain_messages k where k.webhook_id = c.webhook_id and k.candidate_id = c.candidate_id and not ${inDays(sql`k.history_at`, days)})
    ), within as (
      select * from chains except all select * from elsewhere
    ), flipped as (
      update webhook_messages m set held = r.place > 1
      from (
        select p.id, p.history_at, row_number() over (partition by p.webhook_id, p.candidate_id order by p.event_tx_id, p.event_seq, p.seq) as place
        from within c
        join webhook_chain_messages k on k.webhook_id = c.webhook_id and k.candidate_id = c.candidate_id
        join lateral (
          select id, history_at, webhook_id, candidate_id, event_tx_id, event_seq, seq from webhook_messages p
          where p.id = k.message_id and p.history_at = k.history_at and ${inDays(sql`p.history_at`, days)} and p.status = ${stillWaiting}
          -- Kept a lateral (never flattened into a join, which on small days hashes every pending message): each message by its key, in its one day.
          offset 0
        ) p on true
      ) r
      -- The status again: PostgreSQL checks it on the row as it is after waiting for its lock, so a message failed meanwhile (its webhook turned off) is not readied.
      where m.id = r.id and m.history_at = r.history_at and m.held <> (r.place > 1) and m.status = ${stillWaiting}
      returning m.id, m.history_at, m.webhook_id, m.next_attempt_at, m.seq, m.held
    ), ${readySetFollows(sql`select * from flipped`, now.toISOString())}
    select (select count(*) from entered)::int as entered,
      (select coalesce(jsonb_agg(jsonb_build_object('webhookId', webhook_id, 'candidateId', candidate_id)), '[]') from elsewhere) as elsewhere`;
}

/**
 * Removes the chain rows whose message has ended (the maintenance run, each
 * minute). Both ways a message ends remove its row in the same statement
 * (the recording, the failure policy), so in normal running this finds
 * nothing; it mends what SQL by hand left. A message and its row are written
 * together too (the one way a message enters the log): nothing finds a
 * waiting message that has no row, as the log has no index of waiting
 * messages (webhook-waiting-message-keys.ts). Returns how many were removed.
 */
export async function removeEndedChainRows(db: Executor): Promise<number> {
  const [row] = await db.execute<{ removed: number }>(sql`
    with removed as (
      delete from webhook_chain_messages k
      where not exists (select from webhook_messages m where m.id = k.message_id and m.history_at = k.history_at and m.status = 'pending')
      returning 1
    )
    select count(*)::int as removed from removed`);
  return row!.removed;
}

/** At most this many retries join the ready set per promotion, so a crowd falling due together (after an outage) stays one short statement each. */
export const promotionBatch = 1000;

/** Retries that have fallen due join the ready set, oldest first (the dispatchers, every second); returns how many. */
export async function promoteDueRetries(db: Executor, now: Date): Promise<number> {
  const at = now.toISOString();
  const [row] = await executePrepared<{ promoted: number }>(
    db,
    sql`
      with due as (
        delete from webhook_waiting_retries where message_id in (
          select message_id from webhook_waiting_retries where due_at <= ${at}::timestamptz
          order by due_at limit ${promotionBatch} for update skip locked)
        returning *
      ), promoted as (
        insert into webhook_ready_messages (message_id, history_at, webhook_id, due_at, seq)
        select message_id, history_at, webhook_id, due_at, seq from due
        on conflict (message_id) do nothing
        returning 1
      )
      select (select count(*) from promoted)::int as promoted`,
  );
  return row!.promoted;
}

function distinctChains(messages: Chain[]): LinkedChain[] {
  const seen = new Map<string, LinkedChain>();
  for (const { webhookId, candidateId } of messages) if (candidateId) seen.set(`${webhookId}/${candidateId}`, { webhookId, candidateId });
  return [...seen.values()];
}
