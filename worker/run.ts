/**
 * The graphile-worker process: runs every background task of the product.
 * Signals are handled by the caller so web, worker and database stop in order.
 */
import { Logger, run, type Runner, type TaskList } from "graphile-worker";
import { log } from "@/server/log";
import { fanOutEvents } from "./tasks/fan-out-events";

export const taskList: TaskList = {
  "fan-out-events": fanOutEvents,
};

// graphile-worker reports every job at info level; ours are too many for that.
const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope, ...meta };
  if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

export function startWorker(options: { connectionString: string; concurrency: number }): Promise<Runner> {
  return run({
    connectionString: options.connectionString,
    concurrency: options.concurrency,
    taskList,
    logger,
    noHandleSignals: true,
    pollInterval: 1000,
    parsedCronItems: [],
  });
}
