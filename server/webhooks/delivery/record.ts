/**
 * Recording a batch's outcomes (docs/webhook-engine.md), in one transaction
 * of two statements sent together: the locks of the chains whose message
 * ended, then one statement that
 *
 * - changes only rows still under this batch's leases (a webhook turned off
 *   meanwhile has ended them, and that stands);
 * - makes a retried message `ready` again at its next try's time (in place),
 *   and deletes an ended one's row, making its chain's next message `ready`;
 * - writes the log: the message's status and the attempt (with the body
 *   sent: its first 64 KiB and its size);
 * - keeps each webhook's bookkeeping of successes and failures.
 *
 * The failure policy runs after it, only for a webhook whose failure run has
 * reached one of its thresholds.
 */
import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { executePrepared } from "@/db/prepared";
import { webhooks } from "@/db/schema";
import { log } from "@/server/log";
import type { Attempted } from "./attempt";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { alertAfterMs, disableAfterMs } from "./failure-thresholds";
import { chainsOf, queueLocksStatement, readyChannel } from "./queue";
import { maxAttempts, retryDelayAfter } from "./retry-schedule";

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "ended" | "gone" | "lease_lost";

/** One row of the recording statement; what is absent reaches SQL as null (`jsonb_to_recordset`). */
export type OutcomeRow = {
  message_id: string;
  history_at: string;
  webhook_id: string;
  leased_at: string;
  status: "pending" | "succeeded" | "failed";
  attempt: number;
  next_attempt_at: string | null;
  /** Why our side did not reach the receiver (a message that ends or waits without a request). */
  failure_reason?: string;
  /** Whether the webhook answered well; absent for a message that ended with nothing to send, which says nothing of the webhook. */
  succeeded?: boolean;
  attempt_id?: string;
  url?: string;
  duration_ms?: number;
  request_headers?: Record<string, string>;
  request_body?: string;
  request_body_bytes?: number;
  response_status?: number | null;
  response_headers?: Record<string, string> | null;
  response_body?: string | null;
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

type Recordable = Exclude<Attempted, { kind: "lease_lost" }>;

/** The message's next state: retried on our schedule, or ended. */
function outcomeRow(attempted: Recordable, now: Date): OutcomeRow {
  const { message } = attempted;
  const base = { message_id: message.id, history_at: message.historyAt, webhook_id: message.webhookId, leased_at: message.leasedAt.toISOString() };
  if (attempted.kind === "ended") return { ...base, status: "failed", attempt: message.attemptCount, next_attempt_at: null, failure_reason: attempted.reason };
  const attempt = message.attemptCount + 1;
  const succeeded = attempted.kind === "sent" && attempted.result.succeeded;
  const delay = succeeded ? null : retryDelayAfter(attempt);
  const retry = delay !== null && attempt < maxAttempts;
  const next = {
    status: succeeded ? "succeeded" : retry ? "pending" : "failed",
    attempt,
    next_attempt_at: retry ? new Date(now.getTime() + delay).toISOString() : null,
  } as const;
  if (attempted.kind === "unbuildable") return { ...base, ...next, succeeded: false, failure_reason: attempted.reason };
  const { result } = attempted;
  return {
    ...base,
    ...next,
    succeeded,
    attempt_id: attempted.attemptId,
    url: attempted.url,
    duration_ms: result.durationMs,
    request_headers: attempted.headers,
    ...keptRequestBody(attempted.body),
    response_status: result.status,
    response_headers: result.headers,
    response_body: result.bodyExcerpt,
    error_class: result.errorClass,
    error_message: result.errorMessage,
  };
}

type RecordedRow = {
  id: string;
  webhook_id: string;
  status: "pending" | "succeeded" | "failed";
  /** Milliseconds since the epoch. */
  failing_since: number | null;
  alerted: boolean | null;
  webhook_enabled: boolean | null;
};

/**
 * Records a batch's outcomes on `db` (the dispatcher's recording pool);
 * returns each message's outcome. A deadlock (with an admin's change of the
 * same rows) is tried again.
 */
export async function recordOutcomes(deps: DeliveryDeps, batch: Attempted[], db: Executor = deps.ctx.db): Promise<Map<string, DeliveryOutcome>> {
  const outcomes = new Map<string, DeliveryOutcome>();
  const recordable: Recordable[] = [];
  for (const attempted of batch) {
    if (attempted.kind === "lease_lost") outcomes.set(attempted.message.id, "lease_lost");
    else recordable.push(attempted);
  }
  if (recordable.length === 0) return outcomes;
  const now = deps.ctx.clock.now();
  const rows = recordable.map((attempted) => outcomeRow(attempted, now));
  const endingChains = chainsOf(recordable.filter((_, index) => rows[index]!.status !== "pending").map(({ message }) => message));
  const recorded = await retryOnDeadlock(() =>
    db.transaction(async (tx) => {
      const [, updated] = await Promise.all([
        executePrepared(tx, queueLocksStatement(endingChains)),
        executePrepared<RecordedRow>(tx, recordStatement(rows, now)),
      ]);
      return updated;
    }),
  );
  await applyPolicyWhereDue(deps, recorded, now);
  const applied = new Map(recorded.map((row) => [row.id, row.status]));
  for (const row of rows) {
    const status = applied.get(row.message_id);
    outcomes.set(row.message_id, status === undefined ? "gone" : row.succeeded === undefined ? "ended" : status === "pending" ? "retry_scheduled" : status);
  }
  return outcomes;
}

/**
 * The recording's statement, after the chains' locks (exported for the
 * query-plan tests). An attempt row is written for every request made, even
 * one whose message was ended meanwhile, but not for a webhook deleted
 * meanwhile. Busy webhooks succeed many times a second: their row is touched
 * only when a failure run ends or the last success is more than a second
 * old.
 */
export function recordStatement(rows: OutcomeRow[], now: Date) {
  const at = now.toISOString();
  return sql`
    with outcome as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as o(
        message_id text, history_at timestamptz, webhook_id text, leased_at timestamptz, status text, attempt int, next_attempt_at timestamptz, failure_reason text,
        succeeded boolean, attempt_id text, url text, duration_ms int, request_headers jsonb, request_body text, request_body_bytes int, response_status int,
        response_headers jsonb, response_body text, error_class text, error_message text)
    ), retried as (
      update webhook_queue q set state = 'ready', due_at = o.next_attempt_at, leased_at = null, attempt_count = o.attempt, last_error = o.failure_reason
      from outcome o where q.message_id = o.message_id and q.leased_at = o.leased_at and o.status = 'pending'
      returning q.message_id, q.history_at
    ), ended as (
      delete from webhook_queue q using outcome o
      where q.message_id = o.message_id and q.leased_at = o.leased_at and o.status <> 'pending'
      returning q.message_id, q.history_at, q.webhook_id, q.candidate_id
    ), next_heads as (
      update webhook_queue q set state = 'ready'
      from ended e
      cross join lateral (
        select h.message_id from webhook_queue h
        where h.webhook_id = e.webhook_id and h.candidate_id = e.candidate_id and h.state = 'held'
        order by h.position limit 1
      ) h
      where q.message_id = h.message_id
      returning q.due_at
    ), logged as (
      update webhook_messages m set
        status = o.status,
        attempt_count = o.attempt,
        next_attempt_at = coalesce(o.next_attempt_at, m.next_attempt_at),
        completed_at = case when o.status = 'pending' then null else ${at}::timestamptz end,
        failure_reason = o.failure_reason
      -- Each message by its key in the outcome (its day a value from the outcome, so one day is opened), once its queue row showed the lease still held.
      from outcome o
      where m.id = o.message_id and m.history_at = o.history_at
        and o.message_id in (select message_id from retried union all select message_id from ended)
      returning m.id, m.webhook_id, m.status, o.succeeded
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
      select l.webhook_id, bool_or(l.succeeded) as any_success, bool_or(not l.succeeded) as any_failure
      from logged l where l.succeeded is not null group by l.webhook_id
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
    -- The notification goes with the commit: a chain's next message is due now.
    select l.id, l.webhook_id, l.status,
      (extract(epoch from t.failing_since) * 1000)::float8 as failing_since, t.failure_alerted_at is not null as alerted, t.enabled as webhook_enabled,
      (select count(*) from (select pg_notify(${readyChannel}, '') from next_heads where due_at <= ${at}::timestamptz limit 1) due)::int as announced
    from logged l left join touched t on t.id = l.webhook_id`;
}

/** The failure policy, for the webhooks whose failure run has just reached a threshold (failure-policy.ts). */
async function applyPolicyWhereDue(deps: DeliveryDeps, recorded: RecordedRow[], now: Date) {
  const due = new Set<string>();
  for (const row of recorded) {
    if (!row.webhook_enabled || row.failing_since === null) continue;
    const failingFor = now.getTime() - row.failing_since;
    if (failingFor >= disableAfterMs || (failingFor >= alertAfterMs && !row.alerted)) due.add(row.webhook_id);
  }
  // The outcomes are recorded by now: a policy run that fails is not the recording's failure (tried again, it would find
  // its leases gone). The maintenance run applies the policy each minute.
  for (const webhookId of due)
    await retryOnDeadlock(() =>
      deps.ctx.db.transaction(async (tx) => {
        const [webhook] = await tx.select().from(webhooks).where(eq(webhooks.id, webhookId)).for("no key update");
        if (webhook) await applyFailurePolicy(tx, deps.ctx, webhook, now);
      }),
    ).catch((error: unknown) => log.warn("the failure policy did not run after a recording; the maintenance run applies it", { error, webhookId }));
}
