/**
 * Webhook deliveries in batches: the hot path, in hand-written SQL.
 *
 * 1. Only the head of a (webhook, candidate) chain is attempted: the others
 *    are `held` (messages.ts) and made ready, in the history's order, as each
 *    head finishes.
 * 2. Claiming is one statement over the ready set (webhook-ready-messages.ts),
 *    never the partitioned history: up to `limit` due messages, oldest first,
 *    locked with SKIP LOCKED (so workers never wait for each other), leased
 *    (the ready row's `leased_at`, its `due_at` moved to the lease's end) and
 *    returned with their webhooks and their bodies, which PostgreSQL renders
 *    (the event with its candidate's latest data, the same JSON text as GET
 *    /v1/events; a resend's event, which may be in any day, is read apart).
 *    It leases ready rows of the days it is given only, and looks their
 *    messages and events up in those days alone (log-days.ts); it reports
 *    the days the ready set spans now when asked, or when it chose a row of
 *    another day, for the next claims. A lease that ran out (its worker died) is due again, and
 *    claimed again, unless a resend made its message held meanwhile: then
 *    it waits for its turn (parked-leases.ts). No transaction stays open
 *    during HTTP.
 * 3. A webhook gets at most its `room` of the claim: a worker caps how many
 *    requests it has in flight to one webhook, so a slow receiver cannot take
 *    every slot.
 * 4. A message whose event or candidate no longer exists, or whose webhook was
 *    turned off, ends on our side: no request, no attempt row, nothing counted
 *    against the webhook; the log says why.
 * 5. A worker that stalls until its lease has nearly run out sends nothing:
 *    another attempt may hold the message by now.
 * 6. Outcomes are recorded for the whole batch in one round trip of two
 *    statements, pipelined on one connection: the first writes the attempt
 *    rows (with the body sent: its first 64 KiB and its size), the messages
 *    (only while this attempt still holds the lease: a webhook turned off
 *    meanwhile has failed the message, and that stands), their ready rows
 *    (gone, or a retry waiting apart), the chain rows of those that ended
 *    (webhook_chain_messages) and the webhooks' bookkeeping; the
 *    second, committed after it with a fresh snapshot that sees messages
 *    committed meanwhile, makes each finished chain's next message ready.
 *    Should the second be lost (a crash between the two), the maintenance run
 *    readies the chain within a minute. The failure policy runs, after them,
 *    only for a webhook whose failure run has reached one of its thresholds.
 * 7. A webhook with a rate limit gets no more of a claim than its pace allows
 *    (`webhook_send_paces`, shared by every worker process); what waits for
 *    it stays ready, in order, and is neither attempted nor counted as failed.
 *
 * The worker's commits do not wait for the WAL flush (db/client.ts): should
 * PostgreSQL itself crash just after one, the message is sent again after its
 * lease, with the same event id. Delivery is at least once.
 */
import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { executePrepared } from "@/db/prepared";
import { type EventType, type MessageOrigin, type StatusChange, webhooks } from "@/db/schema";
import { env } from "@/server/env";
import { eventJsonText } from "@/server/read/events";
import { isoText } from "@/server/read/stored-values";
import { decryptHeaders, maskCustomHeaders } from "./custom-headers";
import type { DeliveryResult } from "./delivery-client";
import { answerDeadlineMs } from "./delivery-client";
import { deliveryHeaders } from "./delivery-headers";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { alertAfterMs, disableAfterMs } from "./failure-thresholds";
import type { CustomHeader } from "./header-rules";
import { type Days, daysOf, everyDay, inDays, readyingDays } from "./log-days";
import { promoteDueRetries, readyChainHeads, readyChainHeadsStatement, stillWaiting } from "./messages";
import { parkedLease } from "./parked-leases";
import { maxAttempts, retryDelayAfter } from "./retry-schedule";
import { decryptSecret } from "./secrets";
import { eventGoneReason, webhookOffReason } from "./unsent-reasons";

/** An attempt older than this without an outcome was interrupted (a killed worker). */
export const leaseMs = () => env.WEBHOOK_ATTEMPT_LEASE_SECONDS * 1000;

export const userAgent = () => `InterviewAPI-Webhooks/1.0 (+${env.APP_URL})`;

export type ClaimedMessage = {
  id: string;
  /** The message's partition key; its attempts carry it. */
  historyAt: string;
  webhookId: string;
  candidateId: string | null;
  eventId: string;
  eventType: EventType;
  attemptCount: number;
  leasedAt: Date;
  /** The JSON text to send; null when the event or its candidate no longer exists. */
  body: string | null;
  /** `customHeaders`: the admin's own headers, sent on every try beside ours (custom-headers.ts). */
  webhook: { url: string; enabled: boolean; secrets: string[]; customHeaders: CustomHeader[] };
};

export type ClaimOptions = {
  limit: number;
  /** How many more requests each webhook may have (invariant 3); webhooks not listed may have `perWebhook`. */
  room?: ReadonlyMap<string, number>;
  perWebhook?: number;
  /** The days whose ready rows it may take (a claim's `readyDays`); every day unless given. */
  days?: Days;
  /** Whether to report the days the ready set spans (`readyDays`; also reported when a row it chose was of another day): two index probes, which a hot queue's dead entries make dearer. */
  reportDays?: boolean;
};

type ClaimedRow = {
  id: string;
  history_at: string;
  company_id: string;
  origin: MessageOrigin;
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
  enabled: boolean;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_valid: boolean | null;
  custom_headers_ciphertext: string | null;
};

/**
 * What a claim brought: the messages, when a webhook held back by its rate
 * limit may send again (null: none is), and the days the ready set spans,
 * for the next claims (null: not reported, or it is empty).
 */
export type Claim = { messages: ClaimedMessage[]; paceWakeAt: Date | null; readyDays: Days | null };

/** Claims and leases up to `limit` due chain heads (invariants 2, 3 and 7), oldest first. */
export async function claimDue(db: Executor, now: Date, options: ClaimOptions): Promise<Claim> {
  const rows = await executePrepared<ClaimedRow & { pace_wake_at: Date | string | null; ready_from: string | null; ready_until: string | null }>(
    db,
    claimStatement(now, options),
  );
  const resentEvents = await readResentEvents(db, rows);
  const secrets = signingSecrets();
  const customHeaders = perWebhook((row) => decryptHeaders(row.custom_headers_ciphertext));
  const { pace_wake_at: wakeAt, ready_from: readyFrom, ready_until: readyUntil } = rows[0]!;
  return {
    paceWakeAt: wakeAt ? new Date(wakeAt) : null,
    readyDays: readyFrom && readyUntil ? daysOf([readyFrom, readyUntil]) : null,
    messages: rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: row.id,
        historyAt: row.history_at,
        webhookId: row.webhook_id,
        candidateId: row.candidate_id,
        eventId: row.event_id,
        eventType: row.event_type,
        attemptCount: row.attempt_count,
        leasedAt: now,
        body: bodyOf(row, row.origin === "resend" ? resentEvents.get(row.event_id) : undefined),
        webhook: { url: row.url, enabled: row.enabled, secrets: secrets(row), customHeaders: customHeaders(row) },
      })),
  };
}

type ClaimedEvent = { created_at: string; change: StatusChange | null };

/**
 * A resend's event, which may be in any day, is read here, apart from the
 * claim (which would otherwise open every day's partition at every run), for
 * the claims that have a resend: by its id in every day, once for them all.
 * Returns them by id.
 */
async function readResentEvents(db: Executor, rows: ClaimedRow[]): Promise<Map<string, ClaimedEvent>> {
  const resent = rows.filter((row) => row.origin === "resend" && row.sample_body === null);
  if (resent.length === 0) return new Map();
  const events = await executePrepared<{ id: string } & ClaimedEvent>(
    db,
    sql`select e.id, ${sql.raw(isoText("e.created_at"))} as created_at, e.change
      from unnest(${sql.param(resent.map((row) => row.event_id))}::text[], ${sql.param(resent.map((row) => row.company_id))}::text[]) as k(id, company_id)
      join events e on e.id = k.id and e.company_id = k.company_id`,
  );
  return new Map(events.map(({ id, ...event }) => [id, event]));
}

/**
 * The JSON text to send: a sample's made-up body as it was written when the
 * sample was asked for; an event's, its fields with its candidate's latest
 * stored text (spec 6.2). `resentEvent`: a resend's event, read apart.
 */
function bodyOf(row: ClaimedRow, resentEvent: ClaimedEvent | undefined): string | null {
  if (row.sample_body !== null) return row.sample_body;
  const event = resentEvent ?? (row.event_created_at === null ? null : { created_at: row.event_created_at, change: row.event_change });
  if (event === null || row.candidate_json === null) return null;
  return eventJsonText({ id: row.event_id, type: row.event_type, created_at: event.created_at, change: event.change }, row.candidate_json);
}

/**
 * The claim's one statement (exported for the query-plan tests). It reads
 * the ready set only: first the webhooks with due messages (one index
 * descent each, a loose index scan), then each webhook's oldest due
 * messages, no more than its room and its rate limit allow, so a webhook at
 * its cap costs one look however long its backlog. A rate-limited webhook's
 * pace row is locked (SKIP LOCKED: another worker claiming for it now
 * decides for both) and moved on by what is taken. Always one row at least:
 * with no message, the row says only when a paced webhook may send again.
 */
export function claimStatement(now: Date, options: ClaimOptions) {
  const room = [...(options.room ?? new Map<string, number>())];
  const days = options.days ?? everyDay;
  const at = now.toISOString();
  return sql`
    with recursive due_webhooks(webhook_id) as (
      (select r.webhook_id from webhook_ready_messages r where r.due_at <= ${at}::timestamptz order by r.webhook_id limit 1)
      union all
      select (
        select r.webhook_id from webhook_ready_messages r
        where r.webhook_id > d.webhook_id and r.due_at <= ${at}::timestamptz
        order by r.webhook_id limit 1)
      from due_webhooks d where d.webhook_id is not null
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
        select r.message_id, r.history_at, r.webhook_id, r.due_at, r.seq from webhook_ready_messages r
        where r.webhook_id = a.webhook_id and r.due_at <= ${at}::timestamptz
          and not ${sql.raw(parkedLease)}
        order by r.due_at, r.seq
        limit a.take
        for update skip locked
      ) c
      where a.take > 0
    ), chosen as (
      select * from offered order by due_at, seq limit ${options.limit}
    ), leased as (
      -- Only rows of the days it looks in (log-days.ts): filtered here, on the rows chosen, where it can change neither how
      -- the ready set is read above nor how the row is found (an index of the ready set's days would read them all).
      update webhook_ready_messages r set leased_at = ${at}::timestamptz, due_at = ${new Date(now.getTime() + leaseMs()).toISOString()}::timestamptz
      from chosen c where r.message_id = c.message_id and ${inDays(sql`c.history_at`, days)}
      returning r.message_id, r.history_at, r.webhook_id, c.due_at as was_due, c.seq
    ), paced as (
      update webhook_send_paces p set sent_until = a.since + (select count(*) from leased l where l.webhook_id = a.webhook_id) * (interval '1 second' / a.rate)
      from allowance a where p.webhook_id = a.webhook_id and a.rate is not null
      returning p.sent_until + greatest(interval '1 second' / a.rate, interval '${sql.raw(String(paceStepMs))} milliseconds') as next_send_at
    ), claimed as (
      -- Lateral: each message read by its key in its one day, never a join over every day's rows. LIMIT 1 (it is
      -- the key) keeps the planner from flattening it into a join, which on small days hashes every day's rows.
      select l.was_due, l.seq, m.*
      from leased l
      cross join lateral (
        select m.id, m.history_at, m.company_id, m.origin, m.webhook_id, m.candidate_id, m.event_id, m.event_type, m.attempt_count, m.sample_body
        from webhook_messages m where m.id = l.message_id and m.history_at = l.history_at and ${inDays(sql`m.history_at`, days)}
        limit 1
      ) m
    )
    -- A paced webhook whose pace another claim holds right now: look again a step later.
    select least((select min(next_send_at) from paced),
        (select min(${at}::timestamptz + greatest(interval '1 second' / w.rate_limit_per_second, interval '${sql.raw(String(paceStepMs))} milliseconds'))
          from allowance a join webhooks w on w.id = a.webhook_id
          where w.rate_limit_per_second is not null and a.rate is null)) as pace_wake_at,
      ready.ready_from, ready.ready_until,
      m.id, to_char(m.history_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as history_at,
      m.company_id, m.origin, m.webhook_id, m.candidate_id, m.event_id, m.event_type, m.attempt_count, m.sample_body #>> '{}' as sample_body,
      w.url, w.enabled, w.secret_ciphertext, w.previous_secret_ciphertext, w.previous_secret_expires_at > ${at}::timestamptz as previous_secret_valid,
      w.custom_headers_ciphertext,
      ${sql.raw(isoText("e.created_at"))} as event_created_at, e.change as event_change, c.api_json as candidate_json
    from (select 1) always
    -- The ready set's days, when asked, and when a row it chose was of another day (and left).
    cross join lateral (
      select ${sql.raw(isoText("min(r.history_at)"))} as ready_from, ${sql.raw(isoText("max(r.history_at)"))} as ready_until from webhook_ready_messages r
      where ${options.reportDays ?? true}::boolean or (select count(*) from chosen) > (select count(*) from leased)
    ) ready
    left join claimed m on true
    left join webhooks w on w.id = m.webhook_id
    -- A message of an event has its event's time as history_at: its event is
    -- looked up in that one day's partition. A resend's event may be in any
    -- day: it is read apart (readResentEvents), not here, where every day would
    -- be opened for every claim.
    left join lateral (
      select e.created_at, e.change from events e
      where e.id = m.event_id and e.created_at = m.history_at and e.company_id = m.company_id and ${inDays(sql`e.created_at`, days)}
      limit 1
    ) e on m.origin = 'event'
    -- By key, fenced as above: a join here hashed every candidate of the server for a claim of ten.
    left join lateral (
      select c.api_json from candidates c where c.id = m.candidate_id and c.company_id = m.company_id and not c.is_preview
      limit 1
    ) c on m.sample_body is null
    order by m.was_due, m.seq`;
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

/** The current secret, and the previous one during the 24 hours after a replacement. */
const signingSecrets = () =>
  perWebhook((row) => {
    const secrets = [decryptSecret(row.secret_ciphertext)];
    if (row.previous_secret_ciphertext && row.previous_secret_valid) secrets.push(decryptSecret(row.previous_secret_ciphertext));
    return secrets;
  });

/** What is decrypted from a webhook's row, once per webhook per claim. */
function perWebhook<T>(read: (row: ClaimedRow) => T) {
  const known = new Map<string, T>();
  return (row: ClaimedRow) => {
    if (!known.has(row.webhook_id)) known.set(row.webhook_id, read(row));
    return known.get(row.webhook_id)!;
  };
}

/**
 * What became of one claimed message, ready to be recorded; `headers` as the
 * log keeps them (custom values masked). A request's `attemptId` is given as
 * it is made, so a recording tried again (its reply lost after the server
 * committed) writes the attempt once.
 */
export type Attempted =
  | {
      message: ClaimedMessage;
      kind: "sent";
      attemptId: string;
      attempt: number;
      startedAt: Date;
      headers: Record<string, string>;
      body: string;
      result: DeliveryResult;
    }
  | { message: ClaimedMessage; kind: "unsent"; reason: string }
  | { message: ClaimedMessage; kind: "lease_lost" };

/** Sends one claimed message, unless our side cannot make it (invariants 4 and 5). */
export async function attemptDelivery({ ctx, client }: DeliveryDeps, message: ClaimedMessage): Promise<Attempted> {
  if (!message.webhook.enabled) return { message, kind: "unsent", reason: webhookOffReason };
  if (message.body === null) return { message, kind: "unsent", reason: eventGoneReason };
  if (message.leasedAt.getTime() + leaseMs() - ctx.clock.now().getTime() < answerDeadlineMs) return { message, kind: "lease_lost" };
  const attempt = message.attemptCount + 1;
  const startedAt = message.leasedAt;
  const ours = deliveryHeaders({
    eventId: message.eventId,
    eventType: message.eventType,
    attempt,
    body: message.body,
    secrets: message.webhook.secrets,
    timestamp: Math.floor(startedAt.getTime() / 1000),
    userAgent: userAgent(),
  });
  // The refused names (header-rules.ts) keep a custom header from replacing one of ours.
  const sent = { ...ours, ...Object.fromEntries(message.webhook.customHeaders.map(({ name, value }) => [name, value])) };
  const result = await client.post(message.webhook.url, message.body, sent);
  const headers = maskCustomHeaders(sent, message.webhook.customHeaders);
  return { message, kind: "sent", attemptId: ctx.newId("attempt"), attempt, startedAt, headers, body: message.body, result };
}

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "ended" | "gone" | "lease_lost";

/** One row of the recording statement; what is absent reaches SQL as null (`jsonb_to_recordset`). */
export type OutcomeRow = {
  message_id: string;
  history_at: string;
  webhook_id: string;
  leased_at: string;
  status: "pending" | "succeeded" | "failed";
  /** Only for a message that ends without a request; it has none of the attempt's columns. */
  failure_reason?: string;
  next_attempt_at?: string | null;
  attempt?: number;
  attempt_id?: string;
  url?: string;
  duration_ms?: number;
  request_headers?: Record<string, string>;
  request_body?: string;
  request_body_bytes?: number;
  response_status?: number | null;
  response_headers?: Record<string, string> | null;
  response_body?: string | null;
  succeeded?: boolean;
  error_class?: string | null;
  error_message?: string | null;
};

/** How much of each body sent the log keeps, in bytes. */
export const keptBodyBytes = 64 * 1024;

/**
 * The body as the log keeps it: its first 64 KiB, cut where a UTF-8
 * character starts so the text stays valid, and its full size in bytes.
 */
export function keptRequestBody(body: string): { request_body: string; request_body_bytes: number } {
  const size = Buffer.byteLength(body);
  if (size <= keptBodyBytes) return { request_body: body, request_body_bytes: size };
  const bytes = Buffer.from(body);
  let end = keptBodyBytes;
  // 0b10xxxxxx is a continuation byte: the cut would split its character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { request_body: bytes.subarray(0, end).toString("utf8"), request_body_bytes: size };
}

/** The message's new state after an attempt: retried on our schedule, or finished. */
function outcomeRow(attempted: Exclude<Attempted, { kind: "lease_lost" }>, now: Date): OutcomeRow {
  const { message } = attempted;
  const base = { message_id: message.id, history_at: message.historyAt, webhook_id: message.webhookId, leased_at: message.leasedAt.toISOString() };
  if (attempted.kind === "unsent") return { ...base, status: "failed", failure_reason: attempted.reason };
  const { attempt, result } = attempted;
  const delay = result.succeeded ? null : retryDelayAfter(attempt);
  const retry = delay !== null && attempt < maxAttempts;
  return {
    ...base,
    status: result.succeeded ? "succeeded" : retry ? "pending" : "failed",
    attempt,
    next_attempt_at: retry ? new Date(now.getTime() + delay).toISOString() : null,
    attempt_id: attempted.attemptId,
    url: message.webhook.url,
    duration_ms: result.durationMs,
    request_headers: attempted.headers,
    ...keptRequestBody(attempted.body),
    response_status: result.status,
    response_headers: result.headers,
    response_body: result.bodyExcerpt,
    succeeded: result.succeeded,
    error_class: result.errorClass,
    error_message: result.errorMessage,
  };
}

type RecordedRow = {
  id: string;
  webhook_id: string;
  candidate_id: string | null;
  status: "pending" | "succeeded" | "failed";
  /** Milliseconds since the epoch. */
  failing_since: number | null;
  alerted: boolean | null;
  webhook_enabled: boolean | null;
};

/**
 * Runs `work` on one connection (a pool of one, or a transaction), so the
 * recording's two statements go together, pipelined, and run in order.
 */
export type OnOneConnection = <T>(work: (db: Executor) => Promise<T>) => Promise<T>;

/** Records a batch's outcomes (invariant 6); returns each message's outcome. */
export async function recordOutcomes(deps: DeliveryDeps, batch: Attempted[], onOneConnection: OnOneConnection): Promise<Map<string, DeliveryOutcome>> {
  const outcomes = new Map<string, DeliveryOutcome>();
  const finishedChains: Array<{ webhookId: string; candidateId: string | null; historyAt: string }> = [];
  for (const attempted of batch) if (attempted.kind === "lease_lost") outcomes.set(attempted.message.id, "lease_lost");
  const now = deps.ctx.clock.now();
  const rows = batch.flatMap((attempted) => (attempted.kind === "lease_lost" ? [] : [outcomeRow(attempted, now)]));
  if (rows.length === 0) return outcomes;
  for (const [index, row] of rows.entries()) {
    const { message } = batch.filter((attempted) => attempted.kind !== "lease_lost")[index]!;
    if (row.status !== "pending") finishedChains.push({ webhookId: message.webhookId, candidateId: message.candidateId, historyAt: message.historyAt });
  }
  const recorded = await retryOnDeadlock(() =>
    onOneConnection(async (db) => {
      // In this order, pipelined: the readying runs after the recording, and sees its messages finished. A chain's
      // next messages are looked for from the finished messages' days through today first (log-days.ts).
      const recording = executePrepared<RecordedRow>(db, recordStatement(rows, now));
      const readying = readyChainHeads(
        db,
        finishedChains,
        now,
        readyingDays(
          finishedChains.map((chain) => chain.historyAt),
          now,
        ),
      );
      const [updated] = await Promise.all([recording, readying]);
      return updated;
    }),
  );
  await applyPolicyWhereDue(deps, recorded, now);
  const applied = new Map(recorded.map((row) => [row.id, row.status]));
  for (const row of rows) {
    const status = applied.get(row.message_id);
    outcomes.set(
      row.message_id,
      status === undefined ? "gone" : row.failure_reason !== undefined ? "ended" : status === "pending" ? "retry_scheduled" : status,
    );
  }
  return outcomes;
}

/**
 * Plans the recording's two statements on `db` (the dispatcher's recording
 * connection, at its start) by running them on no outcome: a plan is made at
 * a statement's first run on a connection, over every day's partition, and
 * took up to 150 ms, which the first message delivered after a worker
 * started waited for.
 */
export async function planRecording(db: Executor, now: Date) {
  await Promise.all([executePrepared(db, recordStatement([], now)), executePrepared(db, readyChainHeadsStatement([], now))]);
}

/**
 * Attempt rows for every request made (even one whose message was failed
 * meanwhile; not one whose webhook was deleted meanwhile), message updates
 * while the lease is still theirs (their ready row, with the same
 * `leased_at`, is still there: it is deleted here, and a retry waits
 * apart), and the webhooks' bookkeeping: a success in the batch
 * ends a failure run; a failure starts one unless the batch also had a
 * success. Busy webhooks succeed many times a second: their row is touched
 * only when a failure run ends or the last success is more than a second old.
 */
export function recordStatement(rows: OutcomeRow[], now: Date) {
  const at = now.toISOString();
  // Whole days: every row's own key is within them (daysOf refuses a key it cannot read), so each message released below is updated.
  const days = daysOf(rows.map((row) => row.history_at));
  return sql`
    with outcome as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as o(
        message_id text, history_at timestamptz, webhook_id text, leased_at timestamptz, status text, attempt int, next_attempt_at timestamptz, failure_reason text,
        attempt_id text, url text, duration_ms int, request_headers jsonb, request_body text, request_body_bytes int, response_status int, response_headers jsonb, response_body text,
        succeeded boolean, error_class text, error_message text)
    ), released as (
      delete from webhook_ready_messages r using outcome o
      where r.message_id = o.message_id and r.leased_at = o.leased_at
      returning r.message_id, r.history_at, r.seq
    ), updated as (
      update webhook_messages m set
        status = o.status,
        attempt_count = coalesce(o.attempt, m.attempt_count),
        next_attempt_at = coalesce(o.next_attempt_at, m.next_attempt_at),
        completed_at = case when o.status = 'pending' then null else ${at}::timestamptz end,
        failure_reason = coalesce(o.failure_reason, m.failure_reason)
      from released r join outcome o on o.message_id = r.message_id
      where m.id = r.message_id and m.history_at = r.history_at and ${inDays(sql`m.history_at`, days)}
        and m.status = ${stillWaiting}
      returning m.id, m.history_at, m.webhook_id, m.candidate_id, m.status, m.next_attempt_at, m.seq, m.held, o.succeeded
    ), unchained as (
      delete from webhook_chain_messages k using updated u where k.message_id = u.id and u.status <> 'pending'
    ), retrying as (
      -- A head that an older event's resend put behind it while it was in flight (held) waits as a held message, not as a retry: readying its chain brings it back when it is head again.
      insert into webhook_waiting_retries (message_id, history_at, webhook_id, due_at, seq)
      select u.id, u.history_at, u.webhook_id, u.next_attempt_at, u.seq from updated u where u.status = 'pending' and not u.held
      on conflict (message_id) do nothing
    ), attempts as (
      insert into webhook_attempts (id, message_id, webhook_id, attempt, url, started_at, duration_ms, request_headers, request_body, request_body_bytes,
        response_status, response_headers, response_body, succeeded, error_class, error_message, created_at, history_at)
      select o.attempt_id, o.message_id, o.webhook_id, o.attempt, o.url, o.leased_at, o.duration_ms, o.request_headers, o.request_body, o.request_body_bytes,
        o.response_status, o.response_headers, o.response_body, o.succeeded, o.error_class, o.error_message, ${at}::timestamptz, o.history_at
      -- Not for a webhook deleted meanwhile (its log went with it): its attempt would break the foreign key, and the
      -- batch would fail for ever. (One deleted after this statement's snapshot fails it once; tried again, it is gone.)
      from outcome o where o.attempt_id is not null and exists (select from webhooks w where w.id = o.webhook_id)
      on conflict do nothing
    ), tried as (
      select u.webhook_id, bool_or(u.succeeded) as any_success, bool_or(not u.succeeded) as any_failure
      from updated u where u.succeeded is not null group by u.webhook_id
    ), touched as (
      update webhooks w set
        last_success_at = case when t.any_success then ${at}::timestamptz else w.last_success_at end,
        failing_since = case when t.any_success then null else coalesce(w.failing_since, ${at}::timestamptz) end,
        failure_alerted_at = case when t.any_success then null else w.failure_alerted_at end,
        last_failure_at = case when t.any_failure then ${at}::timestamptz else w.last_failure_at end
      from tried t
      where w.id = t.webhook_id
        and (t.any_failure or w.failing_since is not null or w.last_success_at is null
          or w.last_success_at < ${at}::timestamptz - interval '1 second')
      returning w.id, w.enabled, w.failing_since, w.failure_alerted_at
    )
    select u.id, u.webhook_id, u.candidate_id, u.status,
      (extract(epoch from t.failing_since) * 1000)::float8 as failing_since, t.failure_alerted_at is not null as alerted, t.enabled as webhook_enabled
    from updated u left join touched t on t.id = u.webhook_id`;
}

/** The failure policy, for the webhooks whose failure run has just reached a threshold (failure-policy.ts). */
async function applyPolicyWhereDue(deps: DeliveryDeps, recorded: RecordedRow[], now: Date) {
  const due = new Set<string>();
  for (const row of recorded) {
    if (!row.webhook_enabled || row.failing_since === null) continue;
    const failingFor = now.getTime() - row.failing_since;
    if (failingFor >= disableAfterMs || (failingFor >= alertAfterMs && !row.alerted)) due.add(row.webhook_id);
  }
  for (const webhookId of due)
    await deps.ctx.db.transaction(async (tx) => {
      const [webhook] = await tx.select().from(webhooks).where(eq(webhooks.id, webhookId));
      if (webhook) await applyFailurePolicy(tx, deps.ctx, webhook, now);
    });
}

/** One round: promotes retries due, claims what is due, sends it all at once, records it all. Returns each message's outcome. */
export async function deliverDue(deps: DeliveryDeps, options: ClaimOptions): Promise<Map<string, DeliveryOutcome>> {
  const now = deps.ctx.clock.now();
  await promoteDueRetries(deps.ctx.db, now);
  const { messages } = await claimDue(deps.ctx.db, now, options);
  if (messages.length === 0) return new Map();
  const attempted = await Promise.all(messages.map((message) => attemptDelivery(deps, message)));
  return recordOutcomes(deps, attempted, (work) => deps.ctx.db.transaction(work));
}
