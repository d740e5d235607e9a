/** graphile-worker's queue as tests see it: queued jobs of a task, and clearing the queue. */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { workerTables } from "@/server/jobs/worker-tables";

// Payloads and locks are in graphile-worker's private tables only (see server/jobs/worker-tables.ts).
const jobs = sql.raw(workerTables.privateJobs);
const tasks = sql.raw(workerTables.privateTasks);

export type QueuedJob<Payload> = { id: string; task: string; payload: Payload; runAt: Date; lockedBy: string | null };

/** Queued jobs, oldest first; of one task when `task` is given. */
export async function queuedJobs<Payload = Record<string, unknown>>(db: Executor, task?: string): Promise<Array<QueuedJob<Payload>>> {
  const rows = await db.execute<{ id: string; task: string; payload: Payload; run_at: string; locked_by: string | null }>(sql`
    select j.id::text, t.identifier as task, j.payload, j.run_at, j.locked_by from ${jobs} j join ${tasks} t on t.id = j.task_id
    ${task ? sql`where t.identifier = ${task}` : sql``}
    order by j.id`);
  return [...rows].map((row) => ({ id: row.id, task: row.task, payload: row.payload, runAt: new Date(row.run_at), lockedBy: row.locked_by }));
}

export async function clearJobs(db: Executor, ids?: string[]) {
  if (!ids) await db.execute(sql`delete from ${jobs}`);
  else for (const id of ids) await db.execute(sql`delete from ${jobs} where id = ${id}::bigint`);
}

/** Leaves the queued jobs locked as a worker that died a minute ago would (it never unlocks them itself). */
export async function lockJobsAsDeadWorker(db: Executor, workerId = "worker-killed-a-minute-ago") {
  await db.execute(sql`update ${jobs} set locked_by = ${workerId}, locked_at = now() - interval '1 minute'`);
}
