/**
 * The queue's writes that change a chain (docs/webhook-engine.md): queueing
 * messages, and ending a webhook's queue when it is turned off. The claim
 * (claim.ts) and the recording of outcomes (record.ts) are the others.
 *
 * The chain rule: of a (webhook, candidate) chain's queued messages, the one
 * with the lowest position is `ready` or `running`, every other is `held`.
 * Every statement that decides which message of a chain may go takes the
 * chains' locks first, in a statement of its own in the same transaction, so
 * that it reads each chain as the last writer left it (a statement's
 * snapshot is taken when it starts: a lock taken inside it would come after
 * its snapshot). The unique index `webhook_queue_one_head_idx` makes a
 * broken rule an error instead of a message sent out of order.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { executePrepared } from "@/db/prepared";
import type { NewMessage } from "./messages";
import { webhookOffReason } from "./unsent-reasons";

/** The channel that wakes the dispatchers when messages become ready now; sent with the commit that makes them ready. */
export const readyChannel = "webhook_messages_ready";

/** The first keys of the chain locks and the webhook locks (`pg_advisory_xact_lock(space, hash)`), so they cannot meet each other or another use of advisory locks. */
const chainLockSpace = 1_946_713;
const webhookLockSpace = 1_946_714;

export type Chain = { webhookId: string; candidateId: string };

/**
 * Takes, until the transaction ends, the chains' locks, then the webhook
 * locks of `queueingTo` shared (their spaces' order), each kind in one order
 * (hashes ascending), so writers of the same chains wait for each other
 * instead of deadlocking; a hash shared by two only makes them wait for each
 * other. (Chains first: a recording that waits for a queueing's chain lock
 * holds no row yet, so a turning off never waits for it.)
 * The webhook lock is taken exclusively by turning a webhook off
 * (`endWebhookQueue`): a transaction that queues messages for a webhook
 * holds it shared, so the two wait for each other. Must run in a
 * transaction, in a statement of its own before the statement that reads
 * the chains (or the webhook).
 */
export function queueLocksStatement(chains: Chain[], queueingTo: string[] = []) {
  return sql`
    select count(case when k.space = ${webhookLockSpace} then pg_advisory_xact_lock_shared(k.space, k.hash) else pg_advisory_xact_lock(k.space, k.hash) end)::int as locked from (
      select ${webhookLockSpace}::int as space, hashtext(w.id) as hash from unnest(${sql.param(queueingTo)}::text[]) as w(id)
      union
      select ${chainLockSpace}::int, hashtext(c.webhook_id || '/' || c.candidate_id)
      from unnest(${sql.param(chains.map((chain) => chain.webhookId))}::text[], ${sql.param(chains.map((chain) => chain.candidateId))}::text[]) as c(webhook_id, candidate_id)
      order by 1, 2
    ) k`;
}

export const chainsOf = (messages: Array<{ webhookId: string; candidateId?: string | null }>): Chain[] =>
  messages.flatMap(({ webhookId, candidateId }) => (candidateId ? [{ webhookId, candidateId }] : []));

export type Enqueued = { ids: string[]; allowed: boolean };

/**
 * Queues the messages at the tail of their chains, due at `now`, in one
 * transaction (`tx`): the chains' locks, then one statement that writes
 * each message to the log and to the queue, `ready` when its chain has
 * nothing queued (the first of the batch's messages of that chain), `held`
 * otherwise; a sample has no chain and is ready. An event's second message
 * to one webhook is left out (the log's unique index). A message to a
 * webhook that is off is left out: the transaction holds the webhooks'
 * locks shared, taken before this statement, so turning a webhook off
 * (`endWebhookQueue`) waits for it and sees its messages, or it waits for
 * the turning off to commit and this statement reads the webhook as off.
 * The statement holds the webhooks' rows `for key share`: one deleted
 * meanwhile is read as gone once the delete commits.
 *
 * `onlyIf`: a statement that must return a row for anything to be queued
 * (fan-out's move of its position, taken in the same statement).
 */
export async function enqueueMessages(tx: Executor, messages: NewMessage[], now: Date, onlyIf?: SQL): Promise<Enqueued> {
  if (messages.length === 0 && !onlyIf) return { ids: [], allowed: true };
  if (messages.length > 0)
    await executePrepared(
      tx,
      queueLocksStatement(
        chainsOf(messages),
        messages.map((message) => message.webhookId),
      ),
    );
  const [row] = await executePrepared<Enqueued>(tx, enqueueStatement(messages, now, onlyIf ?? sql`select 1`));
  return { ids: row!.ids, allowed: row!.allowed };
}

/** The statement of `enqueueMessages` after the chains' locks (exported for the query-plan tests). */
export function enqueueStatement(messages: NewMessage[], now: Date, onlyIf: SQL) {
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
    history_at: message.historyAt?.toISOString() ?? at,
    event_at: message.event?.createdAt.toISOString() ?? null,
    event_change: message.event?.change ?? null,
    ordinal,
  }));
  return sql`
    with allowed as (${onlyIf}), incoming as (
      select n.* from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as n(
        id text, company_id text, webhook_id text, origin text, event_id text, event_type text, candidate_id text, event_tx_id bigint, event_seq bigint,
        is_test boolean, sample_body jsonb, resent_from text, history_at timestamptz, event_at timestamptz, event_change jsonb, ordinal int)
      where exists (select from allowed)
    ), open_webhooks as (
      select w.id from webhooks w where w.id in (select webhook_id from incoming) and w.enabled
      for key share
    ), logged as (
      insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, event_tx_id, event_seq, is_test, sample_body,
        resent_from, status, attempt_count, next_attempt_at, created_at, history_at)
      select n.id, n.company_id, n.webhook_id, n.origin, n.event_id, n.event_type, n.candidate_id, n.event_tx_id, n.event_seq, n.is_test, n.sample_body,
        n.resent_from, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz, n.history_at
      from incoming n join open_webhooks w on w.id = n.webhook_id
      order by n.ordinal
      on conflict (webhook_id, event_id, history_at) where origin = 'event' do nothing
      returning id, history_at, webhook_id, candidate_id, seq
    ), queued as (
      insert into webhook_queue (message_id, history_at, webhook_id, candidate_id, company_id, event_id, event_type, event_at, event_change, sample_body,
        position, state, due_at, queued_at)
      select l.id, l.history_at, l.webhook_id, l.candidate_id, n.company_id, n.event_id, n.event_type, n.event_at, n.event_change, n.sample_body, l.seq,
        case when l.candidate_id is null then 'ready'
          when row_number() over (partition by l.webhook_id, l.candidate_id order by l.seq) = 1 and chain.queued is null then 'ready'
          else 'held' end,
        ${at}::timestamptz, ${at}::timestamptz
      from logged l
      join incoming n on n.id = l.id
      -- Whether the chain has a message queued, probed once per message (a lateral subquery with a limit runs for each
      -- row): written as not exists, the planner hashed the whole queue for every batch.
      left join lateral (
        select true as queued from webhook_queue q where q.webhook_id = l.webhook_id and q.candidate_id = l.candidate_id limit 1
      ) chain on l.candidate_id is not null
      returning state
    )
    select coalesce((select array_agg(id) from logged), '{}') as ids, exists (select from allowed) as allowed,
      (select count(*) from (select pg_notify(${readyChannel}, '') from queued where state = 'ready' limit 1) announced)::int as announced`;
}

/**
 * Ends every queued message of a webhook that is being turned off, in the
 * transaction that turns it off (`tx`): the log says failed ("webhook off"),
 * and their rows go, running ones too (their outcome, when it comes, finds
 * no lease and changes nothing). It first takes the webhook's lock
 * exclusively, in a statement of its own: that waits for every transaction
 * queueing for the webhook (`enqueueMessages` holds it shared), so the
 * statement after it sees every message queued before; one that queues
 * after waits for this transaction and reads the webhook as off. Rows are
 * deleted in position order, as the recording takes a chain's rows.
 * Returns how many.
 */
export async function endWebhookQueue(tx: Executor, webhookId: string, now: Date): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${webhookLockSpace}, hashtext(${webhookId}))`);
  const [row] = await tx.execute<{ ended: number }>(endWebhookQueueStatement(webhookId, now));
  return row!.ended;
}

/** The statement of `endWebhookQueue` (exported for the query-plan tests). */
export function endWebhookQueueStatement(webhookId: string, now: Date) {
  return sql`
    with ended as (
      delete from webhook_queue where message_id in (
        select message_id from webhook_queue where webhook_id = ${webhookId} order by position for update)
      returning message_id, history_at
    ), logged as (
      update webhook_messages m set status = 'failed', completed_at = ${now.toISOString()}::timestamptz, failure_reason = ${webhookOffReason}
      from ${changedKeys(sql`select message_id, history_at from ended`)} where m.id = k.message_id and m.history_at = k.history_at
    )
    select count(*)::int as ended from ended`;
}

/**
 * Every ready message of the webhook is due now, whatever its retry time (a
 * new address or new headers: the next try may succeed); held ones still
 * wait their turn. The log's next try says so too.
 */
export async function makeRetriesDueNow(tx: Executor, webhookId: string, now: Date) {
  await tx.execute(sql`
    with due as (
      update webhook_queue set due_at = ${now.toISOString()}::timestamptz
      where webhook_id = ${webhookId} and state = 'ready' and due_at > ${now.toISOString()}::timestamptz
      returning message_id, history_at
    ), logged as (
      update webhook_messages m set next_attempt_at = ${now.toISOString()}::timestamptz
      from ${changedKeys(sql`select message_id, history_at from due`)} where m.id = k.message_id and m.history_at = k.history_at
    )
    select pg_notify(${readyChannel}, '') from (select from due limit 1) announced`);
}

/**
 * Rows of `keys` (message_id, history_at) as the set `k`, unnested from two
 * arrays in one order: for an update of the log by keys taken from the
 * queue, which the planner then looks up one by one, each in its day
 * (joined to the keys directly, it hashed every day of the log).
 */
export const changedKeys = (keys: SQL) =>
  sql`unnest(array(select message_id from (${keys}) c order by message_id), array(select history_at from (${keys}) c order by message_id)) as k(message_id, history_at)`;
