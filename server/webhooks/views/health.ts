/**
 * How a webhook is doing, computed in one place for the settings pages, the
 * CLI and the tests. The states, first match wins:
 *
 * - `off`: turned off (by an admin, the operator or the failure policy).
 * - `failing`: a failure run (tries failing with no success between them)
 *   has lasted as long as the alert threshold (failure-thresholds.ts), or a
 *   message ended failed, its last try used up, during the run. `failingSince`
 *   is the run's start.
 * - `retrying`: the latest tries failed, but the run is younger than the alert
 *   threshold and no message has failed for good in it: they are being retried.
 * - `healthy`: the latest try succeeded (no failure run, and the last success
 *   is no older than the last failure).
 * - `no_deliveries`: no failure run and no success after the last failure:
 *   nothing has been tried yet, or the webhook was turned on again after
 *   failed tries (turning on ends the run) and nothing has been tried since.
 *
 * A success ends a run. Messages
 * marked failed because the webhook was turned off, or whose event is gone,
 * failed through no fault of the receiver's and count for nothing here.
 *
 * The success rates are of tries (samples' and resends' too), over the
 * chart's windows (chart-ranges.ts): the share of the tries the chart shows
 * that succeeded.
 */
import type postgres from "postgres";
import { alertAfterMs } from "../delivery/failure-thresholds";
import { maxAttempts } from "../delivery/retry-schedule";
import { chartWindow } from "./chart-ranges";

export const webhookStates = ["off", "no_deliveries", "healthy", "retrying", "failing"] as const;
export type WebhookState = (typeof webhookStates)[number];

export type WebhookHealth = {
  state: WebhookState;
  /** Start of the current failure run (`retrying` and `failing`), else null. */
  failingSince: string | null;
  /** Percent of the tries over the 24-hour window that succeeded; null without tries. */
  successRate24h: number | null;
  successRate7d: number | null;
  /** How many tries each rate is of. */
  tries24h: number;
  tries7d: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  waitingMessages: number;
};

type HealthRow = {
  id: string;
  enabled: boolean;
  failing_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  failed_for_good_in_run: boolean;
  ok_24h: number;
  all_24h: number;
  ok_7d: number;
  all_7d: number;
  waiting: number;
};

function healthState(
  row: Pick<HealthRow, "enabled" | "failing_since" | "last_success_at" | "last_failure_at" | "failed_for_good_in_run">,
  now: Date,
): WebhookState {
  if (!row.enabled) return "off";
  if (row.failing_since) {
    const reachedAlert = now.getTime() - row.failing_since.getTime() >= alertAfterMs;
    return reachedAlert || row.failed_for_good_in_run ? "failing" : "retrying";
  }
  const latestSucceeded = row.last_success_at !== null && (row.last_failure_at === null || row.last_success_at >= row.last_failure_at);
  return latestSucceeded ? "healthy" : "no_deliveries";
}

/**
 * The figures of each webhook, in one statement. None of its reads can be
 * narrowed to days of the log: a message's day is its event's (a past event
 * sent today, or a fan-out that caught up late, is in an old day), its tries
 * go on while it waits in its chain, and a day is kept while a message in it
 * waits. Each day is read through an index: the webhook's tries by start
 * time, a try's message by its key. Waiting messages are counted in the
 * queue (webhook-queue.ts), never the log.
 */
export function webhookHealthQuery(sql: postgres.Sql, companyId: string, webhookIds: string[], now: Date) {
  const day = chartWindow("24h", now);
  const week = chartWindow("7d", now);
  // A message that failed for good was failed by the recording of its last
  // try, which also started or continued the run: its attempt row is written
  // at that moment (created_at ≥ failing_since). The try itself started at
  // most an attempt lease earlier; a day's margin keeps the index range exact
  // for any lease setting. Each such try's message is looked up by its key,
  // in its one day (joined, the planner may read every day of the log whole).
  return sql<HealthRow[]>`
    select w.id, w.enabled, w.failing_since, w.last_success_at, w.last_failure_at,
      w.failing_since is not null and exists (
        select 1 from webhook_attempts f
        where f.webhook_id = w.id and f.started_at >= w.failing_since - interval '1 day' and f.created_at >= w.failing_since
          and not f.succeeded and f.attempt >= ${maxAttempts}
          and (select m.status = 'failed' and m.failure_reason is null from webhook_messages m where m.id = f.message_id and m.history_at = f.history_at)
      ) as failed_for_good_in_run,
      coalesce(a.ok_24h, 0)::int as ok_24h, coalesce(a.all_24h, 0)::int as all_24h,
      coalesce(a.ok_7d, 0)::int as ok_7d, coalesce(a.all_7d, 0)::int as all_7d,
      (select count(*) from webhook_queue q where q.webhook_id = w.id)::int as waiting
    from webhooks w
    left join lateral (
      select
        count(*) filter (where succeeded and started_at >= ${day.from}) as ok_24h,
        count(*) filter (where started_at >= ${day.from}) as all_24h,
        count(*) filter (where succeeded) as ok_7d,
        count(*) as all_7d
      from webhook_attempts where webhook_id = w.id and started_at >= ${week.from} and started_at < ${week.to}
    ) a on true
    where w.company_id = ${companyId} and w.id in ${sql(webhookIds)}`;
}

export async function webhookHealth(sql: postgres.Sql, companyId: string, webhookIds: string[], now: Date): Promise<Map<string, WebhookHealth>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await webhookHealthQuery(sql, companyId, webhookIds, now);
  const rate = (ok: number, all: number) => (all === 0 ? null : Math.round((ok / all) * 1000) / 10);
  return new Map(
    rows.map((row) => {
      const state = healthState(row, now);
      return [
        row.id,
        {
          state,
          failingSince: state === "retrying" || state === "failing" ? row.failing_since!.toISOString() : null,
          successRate24h: rate(row.ok_24h, row.all_24h),
          successRate7d: rate(row.ok_7d, row.all_7d),
          tries24h: row.all_24h,
          tries7d: row.all_7d,
          lastSuccessAt: row.last_success_at?.toISOString() ?? null,
          lastFailureAt: row.last_failure_at?.toISOString() ?? null,
          waitingMessages: row.waiting,
        },
      ];
    }),
  );
}
