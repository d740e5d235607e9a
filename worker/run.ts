/**
 * The worker process: graphile-worker runs the background jobs (fan-out,
 * emails, maintenance), and the dispatcher delivers webhook messages, claimed
 * in batches from the queue. Signals are handled by the caller so web, worker
 * and database stop in order; stopping lets running deliveries finish and
 * hands queued jobs back.
 */
import { EventEmitter } from "node:events";
import { Logger, parseCronItems, type Runner, run, type Task, type TaskList, type WorkerEvents } from "graphile-worker";
import type pg from "pg";
import { databaseUnavailability, whileUnavailable } from "@/db/availability";
import { createDatabase, type DatabaseOptions, sessionLimits } from "@/db/client";
import { createDomainContext } from "@/server/domain/context";
import { databaseClock } from "@/server/domain/database-clock";
import { taskNames } from "@/server/jobs/queue";
import { log } from "@/server/log";
import { createMailer } from "@/server/notifications/email";
import { databaseGauges } from "@/server/observability/database-gauges";
import { logOutage } from "@/server/observability/outage-log";
import { databaseReadiness, type Readiness } from "@/server/observability/readiness";
import { type ClientOptions, createDeliveryClient } from "@/server/webhooks/delivery/delivery-client";
import { type DispatcherOptions, startDispatcher } from "@/server/webhooks/delivery/dispatcher";
import type { WorkerDeps } from "./deps";
import { createJobPool } from "./job-pool";
import { keepAlive } from "./liveness";
import { fanOutEvents } from "./tasks/fan-out-events";
import { forgetSpentRateLimitsTask } from "./tasks/forget-spent-rate-limits";
import { deleteExpiredHistoryTask } from "./tasks/history-partitions";
import { sendEmail } from "./tasks/send-email";
import { webhookMaintenance } from "./tasks/webhook-maintenance";

/** The dispatcher's recordings run on one connection of their own: a recording's two statements go together, in order. */
export const recordingConnection = { max: 1, asyncCommit: true, planOnce: true, limits: sessionLimits.recordings } satisfies DatabaseOptions;

/**
 * How long a job waits out a database that refuses or cannot take its
 * connection (out of slots, failing over) before it fails and graphile-worker
 * retries it, after e^attempts seconds: a few seconds' squeeze does not hold
 * fan-out, and with it deliveries, for the minute that three failures cost.
 * Running a job again is safe: each may run twice already.
 */
export const jobOutageWaitMs = 10_000;

const waitingOutOutages =
  (task: Task): Task =>
  (payload, helpers) =>
    whileUnavailable(async () => task(payload, helpers), jobOutageWaitMs);

export function taskList(deps: WorkerDeps): TaskList {
  const tasks: Record<string, Task> = {
    [taskNames.fanOut]: fanOutEvents(deps),
    [taskNames.sendEmail]: sendEmail(deps),
    [taskNames.maintenance]: webhookMaintenance(deps),
    [taskNames.deleteExpiredHistory]: deleteExpiredHistoryTask(deps),
    [taskNames.forgetSpentRateLimits]: forgetSpentRateLimitsTask(deps),
  };
  return Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, waitingOutOutages(task)]));
}

const cron = parseCronItems([
  { task: taskNames.maintenance, match: "* * * * *" },
  { task: taskNames.deleteExpiredHistory, match: "17 * * * *" },
  { task: taskNames.forgetSpentRateLimits, match: "47 * * * *" },
]);

// graphile-worker reports every job at info level; ours are too many for that.
// A failure because the database is unavailable is part of an outage, logged once per outage.
const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope, ...meta };
  const unavailable = databaseUnavailability(meta?.error ?? meta?.fatalError);
  if (unavailable && (level === "error" || level === "warning")) logOutage("background jobs", unavailable);
  else if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

export type WorkerHandle = {
  stop: () => Promise<void>;
  /** Ready while the job pool and the dispatcher run and the database answers, fully migrated. */
  readiness: () => Promise<Readiness>;
  /** The database gauges for /metrics (server/observability/database-gauges.ts). */
  databaseMetrics: () => Promise<string>;
};

export type WorkerOptions = {
  connectionString: string;
  /** Jobs graphile-worker runs at once. */
  concurrency: number;
  /** Connections each of the process's two postgres.js pools may open, and graphile-worker's own pool. */
  pools: { database: number; jobs: number };
  /** Requests the dispatcher keeps in flight, in all and to one webhook. */
  deliveries: Omit<DispatcherOptions, "pollMs">;
  /** Targets deliveries may reach despite the public-address rule, and extra CAs they trust: the caller's WEBHOOK_ALLOW_TARGETS and WEBHOOK_CA_FILE. */
  delivery: Pick<ClientOptions, "allowTargets" | "extraCa">;
  deps?: Partial<WorkerDeps>;
};

/**
 * Runs the worker pool and keeps it running: graphile-worker ends its pool
 * when the database goes away (a PostgreSQL restart), so a new pool is started,
 * retrying until the database answers again. `stop()` ends it for good.
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const database = createDatabase(options.connectionString, { max: options.pools.database, asyncCommit: true, planOnce: true, limits: sessionLimits.worker });
  // The dispatcher's claims run on their own connections with tight limits: one the network cut halts claiming for seconds only.
  const claimDatabase = createDatabase(options.connectionString, { max: 1, asyncCommit: true, planOnce: true, limits: sessionLimits.claims });
  const recordingDatabase = createDatabase(options.connectionString, recordingConnection);
  const client = createDeliveryClient(options.delivery);
  // Leases, retry times and a webhook's day of failures are compared across workers: on the database's clock, which they share.
  const clock = databaseClock(database.sql);
  await clock.ready;
  const deps: WorkerDeps = { ctx: createDomainContext(database.db, { clock }), sql: database.sql, client, mailer: createMailer(), ...options.deps };
  let runner: Runner | null = null;
  let stopping = false;
  // Each pool (a new one after every database restart) proves it is alive,
  // and frees what dead ones left locked (liveness.ts).
  let liveness: { stop: () => void } | null = null;
  const events: WorkerEvents = new EventEmitter();
  events.on("pool:create", ({ workerPool }) => {
    liveness?.stop();
    liveness = keepAlive(database.sql, workerPool.id);
  });

  let jobPool: pg.Pool | null = null;
  const endJobPool = () => {
    const ended = jobPool;
    jobPool = null;
    return ended?.end().catch((error: unknown) => log.warn("the job pool did not end cleanly", { error }));
  };

  const launch = async (): Promise<void> => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        jobPool = createJobPool(options.connectionString, options.pools.jobs);
        runner = await run({
          pgPool: jobPool,
          concurrency: options.concurrency,
          taskList: taskList(deps),
          logger,
          noHandleSignals: true,
          events,
          pollInterval: 1000,
          parsedCronItems: cron,
          // Completions go through a batcher that shutdown flushes; unbatched
          // ones are fired without being awaited and can be lost by a prompt exit.
          // The local queue fetches jobs in batches, saving a round trip per job.
          preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, localQueue: { size: options.concurrency } } },
        });
        // A worker that starts after a crash picks up interrupted attempts at once.
        await runner.addJob(taskNames.maintenance, {});
        const current = runner;
        current.promise.then(
          () => relaunch(current, "the worker pool exited"),
          (error: unknown) => relaunch(current, error),
        );
        return;
      } catch (error) {
        void endJobPool();
        if (attempt === 1) log.warn("the worker cannot start yet; retrying", { error });
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 500 * attempt)));
      }
    }
  };

  const relaunch = (ended: Runner, reason: unknown) => {
    if (stopping || runner !== ended) return;
    log.warn("the worker pool stopped; starting a new one", { reason });
    runner = null;
    void endJobPool();
    setTimeout(() => void launch(), 1_000);
  };

  await launch();
  const dispatcher = startDispatcher({ ...deps, claims: claimDatabase.db, recordings: recordingDatabase.db }, options.deliveries);
  const gauges = databaseGauges(database.sql);
  return {
    readiness: async () => {
      if (stopping) return { ready: false, reason: "the worker is stopping" };
      // A database that is down also stops the job pool: the cause is the reason given.
      const ofDatabase = await databaseReadiness(database.sql);
      if (!ofDatabase.ready) return ofDatabase;
      if (!runner) return { ready: false, reason: "the job pool is not running (starting again)" };
      if (!dispatcher.running()) return { ready: false, reason: "the webhook dispatcher is not running" };
      return ofDatabase;
    },
    databaseMetrics: () => gauges.text(),
    stop: async () => {
      stopping = true;
      liveness?.stop();
      clock.stop();
      await Promise.all([dispatcher.stop(), runner?.stop().catch((error: unknown) => log.warn("the worker pool did not stop cleanly", { error }))]);
      await endJobPool();
      await client.close();
      await Promise.all([database.close(), claimDatabase.close(), recordingDatabase.close()]);
    },
  };
}
