/**
 * The product's background jobs: every task name, and the functions that
 * enqueue them. Jobs are added with graphile-worker's SQL API inside the
 * caller's transaction, so a job exists exactly when the change that needs it
 * has committed. The worker registers its tasks under these names.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";

/** graphile-worker's schema; what we read of its tables is named in worker-tables.ts. */
export const workerSchema = "graphile_worker";

const addJob = sql.raw(`${workerSchema}.add_job`);

export const taskNames = {
  fanOut: "fan-out-events",
  sendEmail: "send-email",
  maintenance: "webhook-maintenance",
  deleteExpiredHistory: "delete-expired-history",
  forgetSpentRateLimits: "forget-spent-rate-limits",
} as const;

export type FanOutPayload = { companyId: string };
export type SendEmailPayload = { emailId: string };

/**
 * Asks for the company's new events to be turned into messages. Any run takes
 * every event not yet fanned out, so jobs need no order and may overlap.
 * A follow-up (a run asked for by a run) is keyed per company, so repeated
 * asks fold into one job.
 */
export async function enqueueFanOut(db: Executor, companyId: string, options: { followUp?: boolean } = {}) {
  const payload: FanOutPayload = { companyId };
  await db.execute(sql`
    select ${addJob}(
      ${taskNames.fanOut},
      ${JSON.stringify(payload)}::json,
      job_key => ${options.followUp ? `fan-out:${companyId}` : null}::text
    )`);
}

/** Sends a recorded email; graphile-worker retries it with its backoff until it goes. */
export async function enqueueEmail(db: Executor, emailId: string) {
  const payload: SendEmailPayload = { emailId };
  await db.execute(sql`select ${addJob}(${taskNames.sendEmail}, ${JSON.stringify(payload)}::json, max_attempts => 12)`);
}
