/**
 * A PostgreSQL restart is survived: the worker reconnects and delivers what
 * happens afterwards. This file runs its own server, so restarting it
 * disturbs no other test file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { submitAttempt } from "@/server/domain/attempts";
import { createDomainContext, type DomainContext } from "@/server/domain/context";
import { type RunningDatabase, startEmbeddedPostgres } from "@/server/runtime/database";
import { localFileStorage } from "@/server/storage/file-storage";
import { createWebhook } from "@/server/webhooks/manage";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { freePort } from "../support/ports";
import { type Receiver, startReceiver } from "../support/receiver";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

let folder: string;
let port: number;
let server: RunningDatabase;
let handle: DatabaseHandle;
let ctx: DomainContext;
let receiver: Receiver;
let caFile: string;

const startServer = () => startEmbeddedPostgres({ directory: path.join(folder, "postgres"), port, database: "restart" });

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "interview-api-restart-"));
  port = await freePort();
  server = await startServer();
  await migrateDatabase(server.url);
  handle = createDatabase(server.url);
  ctx = createDomainContext(handle.db, { storage: localFileStorage(path.join(folder, "files")) });
  receiver = await startReceiver();
  caFile = path.join(folder, "ca.pem");
  writeFileSync(caFile, receiver.ca);
}, 120_000);

afterAll(async () => {
  await handle.close();
  await server.stop();
  await receiver.close();
  rmSync(folder, { recursive: true, force: true });
});

const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: server.url, WEBHOOK_ALLOW_TARGETS: receiver.target, WEBHOOK_CA_FILE: caFile }));

it("keeps delivering after PostgreSQL restarts", { timeout: 120_000 }, async () => {
  const worker = await startWorker();
  const companyId = await makeCompany(ctx, "Restart");
  const interview = await makeInterview(ctx, companyId);
  await createWebhook(ctx, companyId, { url: receiver.url(), eventTypes: ["candidate.submitted"] }, allowReceiver(receiver));
  const submit = async (email: string) => {
    const candidate = await startCandidate(ctx, interview.id, { email });
    await completeSteps(ctx, interview, candidate.id);
    await scoreAndRecord(ctx, candidate.id);
    await submitAttempt(ctx, candidate.id);
  };
  await submit("before@example.com");
  await receiver.waitFor(1);

  // The test's own pool is not under test: it leaves before the restart.
  await handle.close();
  await server.stop();
  server = await startServer();
  handle = createDatabase(server.url);
  ctx = { ...ctx, db: handle.db };
  await submit("after@example.com");
  await receiver.waitFor(2, 30_000);
  expect(worker.child.exitCode, worker.output().slice(-2000)).toBeNull();
  expect(receiver.received.map((request) => JSON.parse(request.body).candidate.email)).toEqual(["before@example.com", "after@example.com"]);
});
