/**
 * server/jobs/worker-tables.ts names graphile-worker's view and private
 * tables, which only the pinned version guarantees: every column read or
 * written through it must be there, or an upgrade broke the metrics, the
 * dead-worker sweep or the tests' job helpers.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { workerTables } from "@/server/jobs/worker-tables";
import { useTestDatabase } from "../support/database";

const test = useTestDatabase();

const columnsUsed: Record<keyof typeof workerTables, string[]> = {
  jobsView: ["id", "task_identifier", "run_at", "attempts", "max_attempts", "locked_at", "locked_by"],
  privateJobs: ["id", "task_id", "payload", "run_at", "attempts", "max_attempts", "locked_by", "locked_at"],
  privateTasks: ["id", "identifier"],
  privateJobQueues: ["locked_by", "locked_at"],
};

it.each(Object.entries(columnsUsed))("%s has every column used", async (name, columns) => {
  const table = workerTables[name as keyof typeof workerTables];
  // Selecting the columns (no rows) fails with "column … does not exist" or "relation … does not exist".
  await expect(test.handle.db.execute(sql.raw(`select ${columns.join(", ")} from ${table} limit 0`))).resolves.toBeDefined();
});
