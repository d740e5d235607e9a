/**
 * graphile-worker jobs of the webhook pipeline. A message has at most one job
 * (job_key `message:<id>`); adding it again moves its run time.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";

export const deliverMessageTask = "deliver-webhook-message";

export async function scheduleDelivery(db: Executor, messageId: string, runAt: Date) {
  await db.execute(sql`
    select graphile_worker.add_job(
      ${deliverMessageTask},
      ${JSON.stringify({ messageId })}::json,
      run_at => ${runAt.toISOString()}::timestamptz,
      job_key => ${`message:${messageId}`},
      max_attempts => 10
    )`);
}
