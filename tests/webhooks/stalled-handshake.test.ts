/**
 * The real worker process against a receiver that accepts the TCP connection
 * and then neither reads nor speaks TLS (a hostile receiver, or a firewall
 * that lets the connection open and drops everything after). Every try must
 * end at the attempt's deadline with its connection gone at both ends, counted
 * from the receiver's side rather than from the worker's internals. A healthy
 * webhook beside it still gets every event.
 */
import { createServer, type Server, type Socket } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookAttempts } from "@/db/schema";
import { submitAttempt } from "@/server/domain/attempts";
import { loadInterview } from "@/server/domain/interviews";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { answerDeadlineMs } from "@/server/webhooks/delivery/delivery-client";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const healthy = useProcessReceiver();
const tries = 20;
/** The worker's cap on requests in flight to one webhook (WEBHOOK_CONCURRENCY): 20 tries take two deadlines. */
const perWebhook = 10;

type Connection = { acceptedAt: number; closedAt: number | null };
const connections: Connection[] = [];
let open = 0;
let mostOpen = 0;
let silent: Server;
let silentTarget = "";

beforeAll(async () => {
  silent = createServer((socket: Socket) => {
    const connection: Connection = { acceptedAt: Date.now(), closedAt: null };
    connections.push(connection);
    mostOpen = Math.max(mostOpen, ++open);
    // It never reads: a FIN from the worker would leave the connection half open
    // here for as long as the receiver likes; only a reset ends it on this side.
    socket.on("error", () => {});
    socket.on("close", () => {
      open--;
      connection.closedAt = Date.now();
    });
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentTarget = `localhost:${(silent.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => silent.close(resolve));
});

const startWorkerProcess = useWorkerProcesses(() => ({
  DATABASE_URL: test.url,
  FILE_STORAGE_DIR: test.filesDir,
  WEBHOOK_ALLOW_TARGETS: `${healthy.receiver.target},${silentTarget}`,
  WEBHOOK_CA_FILE: healthy.caFile,
  WEBHOOK_CONCURRENCY: String(perWebhook),
}));

it(`closes every socket to a receiver that never handshakes at the deadline, over ${tries} tries`, { timeout: 90_000 }, async () => {
  const companyId = await makeCompany(test.ctx, "Stalled");
  const interview = await makeInterview(test.ctx, companyId);
  const eventTypes: ["candidate.submitted"] = ["candidate.submitted"];
  const stalled = await createWebhook(test.ctx, companyId, { url: `https://${silentTarget}/hook`, eventTypes }, { allowTargets: [silentTarget] });
  await createWebhook(test.ctx, companyId, { url: healthy.receiver.url(), eventTypes }, allowReceiver(healthy.receiver));
  const loaded = await loadInterview(test.ctx.db, interview.id);
  test.clock.set(new Date());
  for (let index = 0; index < tries; index++) {
    const candidate = await startCandidate(test.ctx, interview.id, { email: `stalled-${index}@example.com` });
    await completeSteps(test.ctx, loaded, candidate.id);
    await scoreAndRecord(test.ctx, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
  }

  await startWorkerProcess();
  await healthy.receiver.waitFor(tries);
  expect(healthy.receiver.received).toHaveLength(tries);

  const recorded = () =>
    test.ctx.db
      .select({ errorClass: webhookAttempts.errorClass })
      .from(webhookAttempts)
      .where(and(eq(webhookAttempts.webhookId, stalled.id)));
  await expect.poll(async () => (await recorded()).length, { timeout: 3 * answerDeadlineMs + 10_000, interval: 500 }).toBe(tries);
  expect((await recorded()).map((attempt) => attempt.errorClass)).toEqual(Array(tries).fill("timeout"));

  // Each try opened one connection, and each was closed by the deadline (plus a
  // moment for the FIN to arrive); never more open at once than the cap.
  await expect.poll(() => open, { timeout: 2_000 }).toBe(0);
  expect(connections).toHaveLength(tries);
  for (const connection of connections) expect(connection.closedAt! - connection.acceptedAt).toBeLessThan(answerDeadlineMs + 1_000);
  expect(mostOpen).toBeLessThanOrEqual(perWebhook);
});
