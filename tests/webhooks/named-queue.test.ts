/**
 * Why fan-out does not rely on a graphile-worker named queue for order: with
 * its local queue on, graphile-worker 0.17.3 fetches several jobs of one named
 * queue in one batch and runs them at once (graphile/worker#621). Fan-out
 * keeps history order by itself instead (its company's position, see
 * fan-out.ts and the overlapping-runs test in delivery.test.ts). Should an
 * upgrade make this test fail, the library keeps named queues serial again;
 * fan-out's order still must not depend on it.
 */
import { Logger, run } from "graphile-worker";
import { expect, it } from "vitest";
import { useTestDatabase } from "../support/database";

const test = useTestDatabase();
const silent = new Logger(() => () => {});

it("graphile-worker with a local queue runs jobs of one named queue at the same time", async () => {
  await test.handle.sql`
    select graphile_worker.add_job('probe', '{}'::json, queue_name => 'one-company') from generate_series(1, 4)`;
  let running = 0;
  let mostAtOnce = 0;
  let done = 0;
  const runner = await run({
    connectionString: test.url,
    concurrency: 4,
    noHandleSignals: true,
    pollInterval: 100,
    logger: silent,
    taskList: {
      probe: async () => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await new Promise((resolve) => setTimeout(resolve, 200));
        running--;
        done++;
      },
    },
    // Batched completions are flushed by stop(); unbatched ones could still be
    // running when the test's database is dropped, failing the run.
    preset: { worker: { localQueue: { size: 4 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  await expect.poll(() => done, { timeout: 10_000 }).toBe(4);
  await runner.stop();
  expect(mostAtOnce).toBeGreaterThan(1);
});
