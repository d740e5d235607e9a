/**
 * The webhook benchmark's baseline: a bare graphile-worker task that signs and
 * POSTs a body it is given, with no fan-out, ordering or delivery log.
 * `tsx tests/bench/baseline-worker.ts DATABASE_URL CA_FILE CONCURRENCY`
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { run } from "graphile-worker";
import { Agent, request } from "undici";

const [connectionString, caFile, concurrency] = process.argv.slice(2) as [string, string, string];
const dispatcher = new Agent({ connect: { ca: [...rootCertificates, readFileSync(caFile, "utf8")] } });

const runner = await run({
  connectionString,
  concurrency: Number(concurrency),
  noHandleSignals: true,
  pollInterval: 1000,
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  taskList: {
    "baseline-post": async (payload) => {
      const { url, body, secret } = payload as { url: string; body: string; secret: string };
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
      const response = await request(url, {
        method: "POST",
        dispatcher,
        body,
        headers: { "Content-Type": "application/json", "Service-Signature": `t=${timestamp},v1=${signature}` },
      });
      await response.body.dump();
    },
  },
});
process.send?.("ready");
process.on("SIGTERM", () => void runner.stop().then(() => process.exit(0)));
