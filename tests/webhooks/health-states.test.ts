/**
 * The health states of server/webhooks/views/health.ts, each reached through real
 * deliveries to a real receiver, on a clock the test moves.
 */
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookMessages, webhookQueue } from "@/db/schema";
import { submitAttempt } from "@/server/domain/attempts";
import type { LoadedInterview } from "@/server/domain/interviews";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { alertAfterMs } from "@/server/webhooks/delivery/failure-thresholds";
import { maxAttempts } from "@/server/webhooks/delivery/retry-schedule";
import { webhookHealth } from "@/server/webhooks/views/health";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, completeSteps, scoreAndRecord, startCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let webhookId: string;
let interview: LoadedInterview;

beforeEach(async () => {
  ({ companyId, interview } = await companyWithInterview(test.ctx));
  // One message per candidate (its submission), so each step below is one try.
  ({ id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] }, allowReceiver(bed.receiver)));
});

async function submitted(email: string) {
  const candidate = await startCandidate(test.ctx, interview.id, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  return candidate;
}

async function health(at = test.clock.now()) {
  return (await webhookHealth(test.handle.sql, companyId, [webhookId], at)).get(webhookId)!;
}

describe("webhook health", () => {
  it("says no deliveries yet before any try, then healthy once the latest try succeeded", async () => {
    expect(await health()).toMatchObject({ state: "no_deliveries", failingSince: null, lastSuccessAt: null, lastFailureAt: null });
    await submitted("ok@example.com");
    await pump(bed.deps);
    expect(await health()).toMatchObject({ state: "healthy", failingSince: null, successRate24h: 100 });
  });

  it("says retrying while a failed try waits for its retry and the run is younger than the alert threshold, then failing since the run's start", async () => {
    await submitted("ok@example.com");
    await pump(bed.deps);
    bed.receiver.answer(() => ({ status: 500 }));
    await submitted("down@example.com");
    const runStart = test.clock.now();
    await pump(bed.deps);
    // The demo's case: one failed try with its retry pending, no message failed.
    expect(await health()).toMatchObject({ state: "retrying", failingSince: runStart.toISOString(), waitingMessages: 1, successRate24h: 50 });
    expect(await health(new Date(runStart.getTime() + alertAfterMs - 1))).toMatchObject({ state: "retrying" });
    expect(await health(new Date(runStart.getTime() + alertAfterMs))).toMatchObject({ state: "failing", failingSince: runStart.toISOString() });
  });

  it("says failing as soon as a message fails for good during the run, however young, and healthy again after a success", async () => {
    bed.receiver.answer(() => ({ status: 500 }));
    await submitted("down@example.com");
    const runStart = test.clock.now();
    await pump(bed.deps);
    expect((await health()).state).toBe("retrying");
    // As if its earlier tries had been made: the next try is its last.
    const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    await test.ctx.db
      .update(webhookQueue)
      .set({ attemptCount: maxAttempts - 1, dueAt: test.clock.now() })
      .where(eq(webhookQueue.messageId, message!.id));
    test.clock.advance(60_000);
    await pump(bed.deps);
    const [ended] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, message!.id));
    expect(ended!.status).toBe("failed");
    expect(await health()).toMatchObject({ state: "failing", failingSince: runStart.toISOString(), waitingMessages: 0 });

    bed.receiver.answer(() => ({ status: 200 }));
    await resendMessage(test.ctx, companyId, message!.id);
    await pump(bed.deps);
    expect(await health()).toMatchObject({ state: "healthy", failingSince: null });
  });

  it("says off when turned off, and no deliveries yet (since turned on again) until a try is made", async () => {
    await submitted("ok@example.com");
    await pump(bed.deps);
    test.clock.advance(1000);
    bed.receiver.answer(() => ({ status: 500 }));
    await submitted("down@example.com");
    await pump(bed.deps);
    await setWebhookEnabled(test.ctx, companyId, webhookId, false);
    expect(await health()).toMatchObject({ state: "off", failingSince: null });
    // Messages failed by turning off are not the receiver's failures.
    const failed = await test.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.status, "failed")));
    expect(failed).toHaveLength(1);
    await setWebhookEnabled(test.ctx, companyId, webhookId, true);
    const turnedOn = await health();
    expect(turnedOn).toMatchObject({ state: "no_deliveries", failingSince: null });
    expect(turnedOn.lastFailureAt).not.toBeNull();
    bed.receiver.answer(() => ({ status: 200 }));
    test.clock.advance(1000);
    await submitted("back@example.com");
    await pump(bed.deps);
    expect((await health()).state).toBe("healthy");
  });
});
