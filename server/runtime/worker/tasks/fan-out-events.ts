import type { Task } from "graphile-worker";
import { grownTablesWatch } from "@/db/grown-tables";
import type { FanOutPayload } from "@/server/jobs/queue";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import type { WorkerDeps } from "../deps";

/**
 * The tables a fan-out fills or reads, whose statistics the dispatcher's and
 * the fan-out's plans are made from (db/grown-tables.ts): the log's days, the
 * history's days, the ready set and the chains' rows.
 */
export const fannedOutTables = ["webhook_messages", "events", "webhook_ready_messages", "webhook_chain_messages"];

/**
 * Enqueued by the domain write path in the transaction that appends events;
 * it names the company only. Every 200 messages this process fans out, the
 * tables they filled are analyzed where they have doubled.
 *
 * One run per company at a time in this process: a job for a company whose
 * run is under way asks that run to go once more, and ends. The run's next
 * read sees every event committed before the job was taken, the job's own
 * included. (Several at once each read the same batch and all but one lost
 * the race for the position: with 1 worker and 20,000 events waiting, 62
 * fan-out statements for 21 batches.) Should that run fail, its job is tried
 * again, and the per-minute catch-up finds any company left behind. Runs in
 * several processes still overlap, and take turns at the position (fan-out.ts).
 */
export const fanOutEvents = (deps: Pick<WorkerDeps, "ctx">): Task => {
  const grownTables = grownTablesWatch(deps.ctx.db, fannedOutTables);
  const running = new Map<string, { again: boolean }>();
  return async (payload) => {
    const { companyId } = payload as FanOutPayload;
    const underWay = running.get(companyId);
    if (underWay) {
      underWay.again = true;
      return;
    }
    const run = { again: true };
    running.set(companyId, run);
    try {
      while (run.again) {
        run.again = false;
        const { created } = await fanOutCompany(deps.ctx, companyId);
        await grownTables.added(created);
      }
    } finally {
      running.delete(companyId);
    }
  };
};
