/**
 * Gauges read from the database when /metrics is scraped (the worker's only):
 * how much webhook work waits, how late the oldest due message is, the
 * background job queue, and how many webhooks fail or were turned off. Totals
 * over all companies, from a few index-backed counts; the answer is kept for a
 * few seconds so that frequent or parallel scrapes cost one query at most.
 *
 * Every process sees the same totals: with several workers, aggregate them
 * with max(), not sum(). When the database does not answer, the gauges are
 * left out of the scrape (a stale number would look like a real one) and
 * `interview_database_up` is 0.
 */
import type postgres from "postgres";
import { Gauge, Registry } from "prom-client";
import { withDeadline } from "@/server/deadline";
import { workerTables } from "@/server/jobs/worker-tables";
import { log } from "@/server/log";
import { parkedLease } from "@/server/webhooks/delivery/parked-leases";

const cacheMs = 5_000;
const answerWithinMs = 3_000;

type Totals = {
  messages_ready: number;
  messages_held: number;
  oldest_due_seconds: number;
  jobs_due: number;
  jobs_scheduled: number;
  jobs_running: number;
  jobs_failed: number;
  webhooks_failing: number;
  webhooks_disabled: number;
};

async function readTotals(sql: postgres.Sql): Promise<Totals> {
  const jobs = sql(workerTables.jobsView);
  const [row] = await sql<Totals[]>`
    select
      m.ready as messages_ready, m.held as messages_held,
      -- A leased row's due_at is its lease's end: one past it is due again, unless a resend parked it.
      coalesce((select extract(epoch from now() - min(r.due_at))::float8 from webhook_ready_messages r where r.due_at <= now() and not ${sql.unsafe(parkedLease)}), 0)
        as oldest_due_seconds,
      j.due as jobs_due, j.scheduled as jobs_scheduled, j.running as jobs_running, j.failed as jobs_failed,
      w.failing as webhooks_failing, w.disabled as webhooks_disabled
    from (
      select
        count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as due,
        count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as scheduled,
        count(*) filter (where locked_at is not null)::int as running,
        count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed
      from ${jobs}
    ) j(due, scheduled, running, failed),
    (
      -- From the waiting messages' keys alone (webhook-waiting-message-keys.ts), never the log: a head is in the ready set (but a
      -- parked lease's message is held) or waits for its retry; every other waiting message is held. (A chain row whose message
      -- was ended by hand counts as held until the maintenance run removes it, within a minute.)
      select r.ready, (select count(*) from webhook_waiting_message_keys)::int - r.ready
      from (select (select count(*) from webhook_ready_messages r where not ${sql.unsafe(parkedLease)})::int
        + (select count(*) from webhook_waiting_retries)::int as ready) r
    ) m(ready, held),
    (
      select count(*) filter (where enabled and failing_since is not null)::int, count(*) filter (where not enabled)::int from webhooks
    ) w(failing, disabled)`;
  return row!;
}

/** A registry whose gauges read `sql`'s database at scrape time; `up` tells whether they could. */
export function databaseGauges(sql: postgres.Sql) {
  const registry = new Registry();
  const registers = [registry];
  const statusRegistry = new Registry();
  const up = new Gauge({
    name: "interview_database_up",
    help: "1 when the database answered the query behind the database gauges at this scrape (or within the last few seconds), else 0.",
    registers: [statusRegistry],
  });
  const messages = new Gauge({
    name: "interview_webhook_messages_waiting",
    help: "Webhook messages not yet delivered: ready (its chain's head, due now or later) or held behind an earlier message of its chain.",
    labelNames: ["state"] as const,
    registers,
  });
  const oldestDue = new Gauge({
    name: "interview_webhook_oldest_due_message_age_seconds",
    help: "How long the oldest message that is due and not being sent has waited past its due time; 0 when none waits.",
    registers,
  });
  const jobs = new Gauge({
    name: "interview_jobs_queued",
    help: "Background jobs (graphile-worker) by state: due, scheduled (later), running, failed (out of attempts).",
    labelNames: ["state"] as const,
    registers,
  });
  const webhooks = new Gauge({
    name: "interview_webhooks",
    help: "Webhooks, over all companies, in a run of failed deliveries while on (the settings call these retrying or failing) or turned off (by an admin or the failure policy).",
    labelNames: ["state"] as const,
    registers,
  });

  let read: { at: number; totals: Promise<Totals | null> } | null = null;
  const totals = () => {
    if (read && Date.now() - read.at < cacheMs) return read.totals;
    const reading = withDeadline(readTotals(sql), answerWithinMs).catch((error: unknown) => {
      log.warn("metrics: the database gauges could not be read", { error });
      return null;
    });
    read = { at: Date.now(), totals: reading };
    return reading;
  };

  return {
    /** The gauges' text; only `interview_database_up` when the database did not answer. */
    async text(): Promise<string> {
      const current = await totals();
      up.set(current ? 1 : 0);
      if (!current) return statusRegistry.metrics();
      messages.set({ state: "ready" }, current.messages_ready);
      messages.set({ state: "held" }, current.messages_held);
      oldestDue.set(current.oldest_due_seconds);
      jobs.set({ state: "due" }, current.jobs_due);
      jobs.set({ state: "scheduled" }, current.jobs_scheduled);
      jobs.set({ state: "running" }, current.jobs_running);
      jobs.set({ state: "failed" }, current.jobs_failed);
      webhooks.set({ state: "in_failure_run" }, current.webhooks_failing);
      webhooks.set({ state: "disabled" }, current.webhooks_disabled);
      return `${await statusRegistry.metrics()}${await registry.metrics()}`;
    },
  };
}
