/**
 * A PostgreSQL restart is survived: the worker reconnects and delivers what
 * happens afterwards. This file runs its own server, so restarting it
 * disturbs no other test file.
 */
import { expect, it } from "vitest";
import { submitAttempt } from "@/server/domain/attempts";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { useOwnDatabase } from "../support/own-database";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const own = useOwnDatabase("restart");
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: own.url, WEBHOOK_ALLOW_TARGETS: own.receiver.target, WEBHOOK_CA_FILE: own.caFile }));

it("keeps delivering after PostgreSQL restarts", { timeout: 120_000 }, async () => {
  const worker = await startWorker();
  const companyId = await makeCompany(own.ctx, "Restart");
  const interview = await makeInterview(own.ctx, companyId);
  await createWebhook(own.ctx, companyId, { url: own.receiver.url(), eventTypes: ["candidate.submitted"] }, allowReceiver(own.receiver));
  const submit = async (email: string) => {
    const candidate = await startCandidate(own.ctx, interview.id, { email });
    await completeSteps(own.ctx, interview, candidate.id);
    await scoreAndRecord(own.ctx, candidate.id);
    await submitAttempt(own.ctx, candidate.id);
  };
  await submit("before@example.com");
  await own.receiver.waitFor(1);

  await own.restart("fast");
  await submit("after@example.com");
  await own.receiver.waitFor(2, 30_000);
  expect(worker.child.exitCode, worker.output().slice(-2000)).toBeNull();
  expect(own.receiver.received.map((request) => JSON.parse(request.body).candidate.email)).toEqual(["before@example.com", "after@example.com"]);
});
