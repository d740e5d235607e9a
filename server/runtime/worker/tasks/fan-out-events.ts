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
 */
export const fanOutEvents = (deps: WorkerDeps): Task => {
  const grownTables = grownTablesWatch(deps.ctx.db, fannedOutTables);
  return async (payload) => {
    const { created } = await fanOutCompany(deps.ctx, (payload as FanOutPayload).companyId);
    await grownTables.added(created);
  };
};
