/**
 * A dead worker's jobs go back to the queue within seconds, not hours.
 *
 * graphile-worker locks each job it takes (and a named queue's head) with the
 * id of the pool that took it, and frees only locks older than 4 hours. A pool
 * that died holding some (its process killed, or cut off by a database
 * restart, after which this process starts a new pool under a new id) would
 * hold them that long. So every live pool writes a heartbeat every few
 * seconds, and at each beat unlocks the jobs and queues of ids whose heartbeat
 * went stale, or that never wrote one and locked long ago.
 *
 * A live pool taken for dead (stalled for longer than `deadAfterMs`) can make
 * a job run twice, which every task tolerates (deliveries hold their own
 * lease, fan-out its company's position, an email its sent mark), or lose a
 * job it then completes by id; the per-minute maintenance catches up what
 * that leaves behind (a company's fan-out). Nobody is
 * judged dead while this pool's own beats fail, nor in the first seconds after
 * a database restart, when nobody could beat.
 */
import type postgres from "postgres";
import { workerSchema } from "@/server/jobs/queue";
import { workerTables } from "@/server/jobs/worker-tables";
import { log } from "@/server/log";
import { warnUnlessOutage } from "@/server/observability/outage-log";

export const heartbeatMs = 5_000;
/** Well under the 60-second attempt lease, so nothing waits on a dead worker longer than that. */
export const deadAfterMs = 20_000;
const forgetAfterMs = 24 * 3600_000;

export function keepAlive(sql: postgres.Sql, workerId: string): { stop: () => void } {
  // After a beat that failed (the database out of reach), others could not
  // beat either: judge nobody dead until a beat has gone through again.
  let reachable = true;
  const beat = () =>
    heartbeat(sql, workerId, reachable).then(
      () => {
        reachable = true;
      },
      (error: unknown) => {
        reachable = false;
        warnUnlessOutage("worker heartbeat", "worker heartbeat failed; retrying", error, { workerId });
      },
    );
  void beat();
  const timer = setInterval(beat, heartbeatMs);
  return { stop: () => clearInterval(timer) };
}

async function heartbeat(sql: postgres.Sql, workerId: string, sweep: boolean) {
  await sql`
    insert into worker_heartbeats (worker_id, seen_at) values (${workerId}, now())
    on conflict (worker_id) do update set seen_at = now()`;
  if (!sweep) return;
  const released = await unlockDeadWorkers(sql);
  if (released.length > 0) log.warn("released the jobs of dead workers", { workerIds: released });
}

/** Unlocks whatever dead pools still hold; returns their ids. */
export async function unlockDeadWorkers(sql: postgres.Sql): Promise<string[]> {
  const schema = sql(workerSchema);
  const deadAfter = `${deadAfterMs} milliseconds`;
  const dead = await sql<Array<{ worker_id: string }>>`
    with holders as (
      select locked_by as worker_id, locked_at from ${sql(workerTables.privateJobs)}
      where locked_by is not null and locked_at < now() - ${deadAfter}::interval
      union all
      select locked_by, locked_at from ${sql(workerTables.privateJobQueues)}
      where locked_by is not null and locked_at < now() - ${deadAfter}::interval
    )
    select h.worker_id from holders h
    where not exists (
        select 1 from worker_heartbeats b where b.worker_id = h.worker_id and b.seen_at >= now() - ${deadAfter}::interval
      )
      -- Just after a database restart nobody has had the time to beat again;
      -- a lock taken before the restart, though, has lost its connection.
      and (pg_postmaster_start_time() < now() - ${deadAfter}::interval or h.locked_at < pg_postmaster_start_time())
    group by h.worker_id`;
  const workerIds = dead.map((row) => row.worker_id);
  if (workerIds.length > 0) await sql`select ${schema}.force_unlock_workers(${workerIds}::text[])`;
  await sql`delete from worker_heartbeats where seen_at < now() - ${`${forgetAfterMs} milliseconds`}::interval`;
  return workerIds;
}
