/**
 * graphile-worker's tables, for what its public API (WorkerUtils, add_job)
 * does not answer: how many jobs wait (metrics), which dead worker still
 * holds a lock (the dead-worker sweep), and, in tests, a queued job's payload
 * and a job left locked as a killed worker leaves it.
 *
 * `jobs` is the view graphile-worker keeps for reading its queue; the
 * `_private_*` tables are its own, and only the pinned graphile-worker 0.17.3
 * guarantees their names and columns. Nothing else names them:
 * tests/jobs/worker-tables.test.ts reads every column used through here, so an
 * upgrade that changes one fails there first.
 */
import { workerSchema } from "./queue";

export const workerTables = {
  /** id, task_identifier, run_at, attempts, max_attempts, locked_at, locked_by. */
  jobsView: `${workerSchema}.jobs`,
  /** id, task_id, payload, run_at, locked_by, locked_at. */
  privateJobs: `${workerSchema}._private_jobs`,
  /** id, identifier. */
  privateTasks: `${workerSchema}._private_tasks`,
  /** locked_by, locked_at. */
  privateJobQueues: `${workerSchema}._private_job_queues`,
} as const;
