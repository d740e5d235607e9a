/**
 * The webhook benchmark's baseline: a bare graphile-worker task that signs and
 * POSTs a body it is given, with no fan-out, ordering or delivery log.
 * `tsx bench/baseline-worker.ts DATABASE_URL CA_FILE CONCURRENCY`
 */
import { run } from "graphile-worker";
import { signedPoster } from "./signed-post";

const [connectionString, caFile, concurrency] = process.argv.slice(2) as [string, string, string];
const post = signedPoster(caFile);

const runner = await run({
  connectionString,
  concurrency: Number(concurrency),
  noHandleSignals: true,
  pollInterval: 1000,
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  taskList: {
    "baseline-post": async (payload) => {
      const { url, body, secret } = payload as { url: string; body: string; secret: string };
      await post(url, body, secret);
    },
  },
});
process.send?.("ready");
process.on("SIGTERM", () => void runner.stop().then(() => process.exit(0)));
