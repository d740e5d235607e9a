/**
 * The graphile-worker process: runs every background task of the product.
 * Signals are handled by the caller so web, worker and database stop in order;
 * `runner.stop()` lets running deliveries finish and hands queued jobs back.
 */
import { Logger, parseCronItems, run, type Runner, type TaskList } from "graphile-worker";
import { readFileSync } from "node:fs";
import { createDatabase } from "@/db/client";
import { createDomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { log } from "@/server/log";
import { createMailer } from "@/server/notifications/email";
import { createDeliveryClient } from "@/server/webhooks/delivery-client";
import type { WebhookDeps } from "@/server/webhooks/deps";
import { deliverMessageTask } from "@/server/webhooks/jobs";
import { deliverWebhookMessage } from "./tasks/deliver-webhook-message";
import { fanOutEvents } from "./tasks/fan-out-events";
import { deleteExpired, webhookMaintenance } from "./tasks/webhook-maintenance";

export function taskList(deps: WebhookDeps): TaskList {
  return {
    "fan-out-events": fanOutEvents(deps),
    [deliverMessageTask]: deliverWebhookMessage(deps),
    "webhook-maintenance": webhookMaintenance(deps),
    "delete-expired-history": deleteExpired(deps),
  };
}

const cron = parseCronItems([
  { task: "webhook-maintenance", match: "* * * * *" },
  { task: "delete-expired-history", match: "17 * * * *" },
]);

// graphile-worker reports every job at info level; ours are too many for that.
const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope, ...meta };
  if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

export async function startWorker(options: { connectionString: string; concurrency: number; deps?: Partial<WebhookDeps> }): Promise<Runner> {
  const database = createDatabase(options.connectionString, { max: options.concurrency + 2 });
  const client = createDeliveryClient({
    allowTargets: env.WEBHOOK_ALLOW_TARGETS,
    extraCa: env.WEBHOOK_CA_FILE ? readFileSync(env.WEBHOOK_CA_FILE, "utf8") : undefined,
  });
  const deps: WebhookDeps = { ctx: createDomainContext(database.db), sql: database.sql, client, mailer: createMailer(), ...options.deps };
  const runner = await run({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    taskList: taskList(deps),
    logger,
    noHandleSignals: true,
    pollInterval: 1000,
    parsedCronItems: cron,
    // Completions go through a batcher that shutdown flushes; unbatched ones
    // are fired without being awaited and can be lost by a prompt exit.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  // A worker that starts after a crash picks up interrupted attempts at once.
  await runner.addJob("webhook-maintenance", {});
  const stop = runner.stop.bind(runner);
  return Object.assign(runner, {
    stop: async () => {
      await stop();
      await client.close();
      await database.close();
    },
  });
}
