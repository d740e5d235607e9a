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

const cacheMs = 5_000;
const answerWithinMs = 3_000;

type Totals = {
  messages_held: number;
  messages_ready: number;
  messages_running: number;
  messages_unsendable: number;
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
      q.held as messages_held, q.ready as messages_ready, q.running as messages_running, q.unsendable as messages_unsendable,
      q.oldest_due_seconds,
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
      -- One read of the queue (webhook-queue.ts). Stuck: a message due and not being sent (a lease that ran out included),
      -- counted from its due time; one whose tries our side cannot make, from when it was queued.
      select count(*) filter (where state = 'held')::int, count(*) filter (where state = 'ready')::int,
        count(*) filter (where state = 'running')::int, count(*) filter (where last_error is not null)::int,
        coalesce(extract(epoch from now() - least(
          min(due_at) filter (where state <> 'held' and due_at <= now()),
          min(queued_at) filter (where last_error is not null)))::float8, 0)
      from webhook_queue
    ) q(held, ready, running, unsendable, oldest_due_seconds),
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
    help: "Webhook messages not yet delivered, by state: held behind an earlier message of its chain, ready (its chain's head, due now or later), running (being sent).",
    labelNames: ["state"] as const,
    registers,
  });
  const oldestDue = new Gauge({
    name: "interview_webhook_oldest_due_message_age_seconds",
    help: "How long the oldest stuck message has waited: one due and not being sent (its lease ran out included) past its due time, one whose tries our side cannot make (see the unsendable gauge) since it was queued; 0 when none.",
    registers,
  });
  const unsendable = new Gauge({
    name: "interview_webhook_messages_unsendable",
    help: "Waiting webhook messages whose last try our side could not make (a secret or header that cannot be decrypted, a body that cannot be built): the delivery log says why.",
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
      messages.set({ state: "held" }, current.messages_held);
      messages.set({ state: "ready" }, current.messages_ready);
      messages.set({ state: "running" }, current.messages_running);
      unsendable.set(current.messages_unsendable);
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
