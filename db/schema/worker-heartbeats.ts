import { pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./columns";

/**
 * Live graphile-worker pools write here every few seconds. A pool whose row
 * went stale (a process killed, or cut off by a database restart) is dead, and
 * whatever jobs it still holds locked are released for other workers at once,
 * instead of after graphile-worker's own 4-hour expiry.
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  workerId: text("worker_id").primaryKey(),
  seenAt: time("seen_at").notNull().defaultNow(),
});
