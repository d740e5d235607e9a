/**
 * The claim (docs/webhook-engine.md): one statement that leases up to
 * `limit` sendable messages (`ready` and due, or `running` with a lease that
 * ran out), oldest due first, locked with SKIP LOCKED so workers never wait
 * for each other, within each webhook's room (requests in flight) and its
 * rate limit. It returns each message with what its request is made of.
 *
 * What cannot be read or built for one webhook or one message (a secret or
 * header that cannot be decrypted, a body that cannot be put together) makes
 * that message's claim `unbuildable` with the reason: it is recorded as a
 * try our side could not make, and every other message of the claim goes.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { executePrepared } from "@/db/prepared";
import type { EventType, StatusChange } from "@/db/schema";
import { env } from "@/server/env";
import { log } from "@/server/log";
import { eventJsonText } from "@/server/read/events";
import { isoText } from "@/server/read/stored-values";
import { decryptHeaders } from "./custom-headers";
import type { CustomHeader } from "./header-rules";
import { decryptSecret, UnreadableSecret } from "./secrets";
import { unbuildableBodyReason, unexpectedFaultReason, unreadableHeadersReason, unreadableSecretReason } from "./unsent-reasons";

/** How long a claimed message is leased: past it, another claim may take it (its worker is taken for dead). */
export const leaseMs = () => env.WEBHOOK_ATTEMPT_LEASE_SECONDS * 1000;

/** What a claimed message's request is made of, or why there is none. */
export type Request =
  | { kind: "ready"; url: string; body: string; secrets: string[]; customHeaders: CustomHeader[] }
  /** Its event or candidate no longer exists: nothing to send, ever. */
  | { kind: "gone" }
  /** Our side cannot make it now (the reason says why and what to do); it is tried again on the retry schedule. */
  | { kind: "unbuildable"; reason: string };

export type ClaimedMessage = {
  id: string;
  /** The message's partition key in the log; its attempts carry it. */
  historyAt: string;
  webhookId: string;
  candidateId: string | null;
  eventId: string;
  eventType: EventType;
  /** Tries made before this one. */
  attemptCount: number;
  /** When this lease began: the recording names it. */
  leasedAt: Date;
  request: Request;
};

export type ClaimOptions = {
  limit: number;
  /** How many more requests each webhook may have; webhooks not listed may have `perWebhook`. */
  room?: ReadonlyMap<string, number>;
  perWebhook?: number;
};

/** What a claim brought: the messages, and when a webhook held back by its rate limit may send again (null: none is). */
export type Claim = { messages: ClaimedMessage[]; paceWakeAt: Date | null };

type ClaimedRow = {
  pace_wake_at: Date | string | null;
  id: string | null;
  history_at: string;
  webhook_id: string;
  candidate_id: string | null;
  event_id: string;
  event_type: EventType;
  attempt_count: number;
  sample_body: string | null;
  /** The event's own fields and its candidate's stored text; null when either is gone. */
  event_created_at: string | null;
  event_change: StatusChange | null;
  candidate_json: string | null;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  custom_headers_ciphertext: string | null;
};

/** Claims and leases up to `limit` sendable messages, oldest due first. */
export async function claimDue(db: Executor, now: Date, options: ClaimOptions): Promise<Claim> {
  const rows = await executePrepared<ClaimedRow>(db, claimStatement(now, options));
  const wakeAt = rows[0]!.pace_wake_at;
  const claimed = rows.filter((row): row is ClaimedRow & { id: string } => row.id !== null);
  const webhookParts = once((row: ClaimedRow) => webhookPartsOf(row));
  return {
    paceWakeAt: wakeAt ? new Date(wakeAt) : null,
    messages: claimed.map((row) => ({
      id: row.id,
      historyAt: row.history_at,
      webhookId: row.webhook_id,
      candidateId: row.candidate_id,
      eventId: row.event_id,
      eventType: row.event_type,
      attemptCount: row.attempt_count,
      leasedAt: now,
      request: requestOf(row, webhookParts(row)),
    })),
  };
}

type WebhookParts = { kind: "ready"; secrets: string[]; customHeaders: CustomHeader[] } | { kind: "unbuildable"; reason: string };

/** The webhook's secrets (the previous one too while it is valid) and custom headers, decrypted, or why they cannot be. */
function webhookPartsOf(row: ClaimedRow): WebhookParts {
  let secrets: string[];
  try {
    secrets = [row.secret_ciphertext, ...(row.previous_secret_ciphertext ? [row.previous_secret_ciphertext] : [])].map(decryptSecret);
  } catch (error) {
    return error instanceof UnreadableSecret ? { kind: "unbuildable", reason: unreadableSecretReason } : unexpected(row, error);
  }
  try {
    return { kind: "ready", secrets, customHeaders: decryptHeaders(row.custom_headers_ciphertext) };
  } catch (error) {
    // Headers decrypted but not the JSON we wrote are as unreadable as headers that do not decrypt.
    return error instanceof UnreadableSecret || error instanceof SyntaxError
      ? { kind: "unbuildable", reason: unreadableHeadersReason }
      : unexpected(row, error);
  }
}

/** Any other fault stays this webhook's (its messages wait with the reason), and is logged whole: the claim goes on for the others. */
function unexpected(row: ClaimedRow, error: unknown): WebhookParts {
  log.warn("a webhook's request could not be put together", { webhookId: row.webhook_id, error });
  return { kind: "unbuildable", reason: unexpectedFaultReason };
}

/**
 * The request: a sample's made-up body as it was written when the sample was
 * asked for; an event's, its fields with its candidate's latest stored text
 * (spec 6.2).
 */
function requestOf(row: ClaimedRow, webhook: WebhookParts): Request {
  if (row.sample_body === null && (row.event_created_at === null || row.candidate_json === null)) return { kind: "gone" };
  if (webhook.kind === "unbuildable") return webhook;
  let body: string;
  try {
    body =
      row.sample_body ??
      eventJsonText({ id: row.event_id, type: row.event_type, created_at: row.event_created_at!, change: row.event_change }, row.candidate_json!);
  } catch {
    return { kind: "unbuildable", reason: unbuildableBodyReason };
  }
  return { kind: "ready", url: row.url, body, secrets: webhook.secrets, customHeaders: webhook.customHeaders };
}

/** `read` once per webhook of a claim: a webhook's secrets are decrypted once, however many of its messages it brought. */
function once<T>(read: (row: ClaimedRow) => T) {
  const known = new Map<string, T>();
  return (row: ClaimedRow) => {
    if (!known.has(row.webhook_id)) known.set(row.webhook_id, read(row));
    return known.get(row.webhook_id)!;
  };
}

/**
 * A rate-limited webhook may send up to this much of its rate at once after
 * a pause (at least one message; fewer while its requests in flight are at
 * the cap): so a claim that comes late, on a busy machine, loses none of the
 * rate, and no second ever gets more than its rate plus this.
 */
const paceBurstMs = 1000;

/** A paced webhook is claimed for again once a message's time has passed, or this long, whichever is longer: fewer, larger claims. */
export const paceStepMs = 100;

/**
 * The claim's one statement (exported for the query-plan tests).
 *
 * 1. The webhooks with sendable messages: one index descent each (a loose
 *    index scan), then one probe for whether any is due, so a webhook whose
 *    messages all wait for a retry costs two looks however many it has.
 * 2. Each webhook takes no more than its room and its rate limit allow. A
 *    rate-limited webhook's pace row is locked (SKIP LOCKED: another claim
 *    for it now decides for both) and moved on by what is taken.
 * 3. The rows taken become `running`, their `due_at` the lease's end.
 * 4. What each message sends comes from its queue row (its event, or a
 *    sample's body), its webhook's row (address, secrets, headers) and its
 *    candidate's stored text, each read by its key. Neither the log nor the
 *    history is read: they are partitioned by day, and a statement over them
 *    costs more with each day kept.
 *
 * Always one row at least: with no message, it says only when a paced
 * webhook may send again.
 */
export function claimStatement(now: Date, options: ClaimOptions) {
  const room = [...(options.room ?? new Map<string, number>())];
  const at = now.toISOString();
  return sql`
    with recursive queued_webhooks(webhook_id) as (
      (select q.webhook_id from webhook_queue q where q.state <> 'held' order by q.webhook_id limit 1)
      union all
      select (select q.webhook_id from webhook_queue q where q.state <> 'held' and q.webhook_id > w.webhook_id order by q.webhook_id limit 1)
      from queued_webhooks w where w.webhook_id is not null
    ), due_webhooks as (
      select w.webhook_id from queued_webhooks w
      where exists (select from webhook_queue q where q.webhook_id = w.webhook_id and q.state <> 'held' and q.due_at <= ${at}::timestamptz)
    ), room as (
      select * from unnest(${sql.param(room.map(([webhookId]) => webhookId))}::text[], ${sql.param(room.map(([, left]) => left))}::int[]) as k(webhook_id, room)
    ), paces as (
      select p.webhook_id, w.rate_limit_per_second as rate,
        greatest(p.sent_until, ${at}::timestamptz - greatest(interval '${sql.raw(String(paceBurstMs))} milliseconds', interval '1 second' / w.rate_limit_per_second)) as since
      from webhook_send_paces p join webhooks w on w.id = p.webhook_id
      where p.webhook_id in (select webhook_id from due_webhooks) and w.rate_limit_per_second is not null
      for update of p skip locked
    ), allowance as (
      select d.webhook_id, p.rate, p.since,
        least(coalesce(k.room, ${options.perWebhook ?? options.limit}),
          case when w.rate_limit_per_second is null then ${options.limit}
            else coalesce(floor(extract(epoch from ${at}::timestamptz - p.since) * p.rate)::int, 0) end) as take
      from due_webhooks d
      join webhooks w on w.id = d.webhook_id
      left join room k on k.webhook_id = d.webhook_id
      left join paces p on p.webhook_id = d.webhook_id
    ), offered as (
      select c.* from allowance a
      cross join lateral (
        select q.message_id, q.due_at, q.position from webhook_queue q
        where q.webhook_id = a.webhook_id and q.state <> 'held' and q.due_at <= ${at}::timestamptz
        order by q.due_at, q.position
        limit a.take
        for update skip locked
      ) c
      where a.take > 0
    ), chosen as (
      select * from offered order by due_at, position limit ${options.limit}
    ), leased as (
      update webhook_queue q set state = 'running', leased_at = ${at}::timestamptz, due_at = ${new Date(now.getTime() + leaseMs()).toISOString()}::timestamptz
      from chosen c where q.message_id = c.message_id
      returning q.message_id, q.history_at, q.webhook_id, q.candidate_id, q.company_id, q.event_id, q.event_type, q.event_at, q.event_change, q.sample_body,
        q.attempt_count, c.due_at as was_due, c.position
    ), paced as (
      update webhook_send_paces p set sent_until = a.since + (select count(*) from leased l where l.webhook_id = a.webhook_id) * (interval '1 second' / a.rate)
      from allowance a where p.webhook_id = a.webhook_id and a.rate is not null
      returning p.sent_until + greatest(interval '1 second' / a.rate, interval '${sql.raw(String(paceStepMs))} milliseconds') as next_send_at
    )
    -- A paced webhook whose pace another claim holds right now: look again a step later.
    select least((select min(next_send_at) from paced),
        (select min(${at}::timestamptz + greatest(interval '1 second' / w.rate_limit_per_second, interval '${sql.raw(String(paceStepMs))} milliseconds'))
          from allowance a join webhooks w on w.id = a.webhook_id
          where w.rate_limit_per_second is not null and a.rate is null)) as pace_wake_at,
      l.message_id as id, ${sql.raw(isoText("l.history_at"))} as history_at, l.webhook_id, l.candidate_id, l.event_id, l.event_type,
      l.attempt_count, l.sample_body #>> '{}' as sample_body, ${sql.raw(isoText("l.event_at"))} as event_created_at, l.event_change,
      w.url, w.secret_ciphertext, case when w.previous_secret_expires_at > ${at}::timestamptz then w.previous_secret_ciphertext end as previous_secret_ciphertext,
      w.custom_headers_ciphertext, c.api_json as candidate_json
    from (select 1) always
    left join leased l on true
    left join webhooks w on w.id = l.webhook_id
    left join candidates c on c.id = l.candidate_id and c.company_id = l.company_id and not c.is_preview and l.sample_body is null
    order by l.was_due, l.position`;
}
