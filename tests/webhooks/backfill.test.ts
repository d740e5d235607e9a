/** Sending a webhook the past events it never had a message for (server/webhooks/admin/backfill.ts). */
import { and, asc, eq } from "drizzle-orm";
import postgres from "postgres";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookMessages, webhookQueue } from "@/db/schema";
import { submitAttempt } from "@/server/domain/attempts";
import type { LoadedInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { backfill, countBackfill, maxBackfillBatch } from "@/server/webhooks/admin/backfill";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, completeSteps, eventsOf, fullInterview, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { allowReceiver, pump, readyMessageIds, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: LoadedInterview;

beforeEach(async () => ({ companyId, interview } = await companyWithInterview(test.ctx)));

async function submitted(email: string, of = interview) {
  const candidate = await startCandidate(test.ctx, of.id, { email });
  await completeSteps(test.ctx, of, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  return candidate;
}

describe("sending past events", () => {
  it("sends the events since a time that match the webhook and it never had, each candidate's in history order, and counts exactly that first", async () => {
    const tooOld = await submitted("old@example.com");
    test.clock.advance(60_000);
    const since = test.clock.now();
    const first = await submitted("first@example.com");
    const second = await submitted("second@example.com");
    await submitted("elsewhere@example.com", await makeInterview(test.ctx, companyId, { ...fullInterview, title: "Elsewhere" }));
    await pump(bed.deps); // the history is fanned out while no webhook exists
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted", "candidate.ready"], interviewIds: [interview.id] },
      allowReceiver(bed.receiver),
    );
    // Already sent to the webhook: not sent again.
    const third = await submitted("third@example.com");
    await pump(bed.deps);
    expect(bed.receiver.received).toHaveLength(2);
    bed.receiver.received.length = 0;

    expect(await countBackfill(test.ctx, companyId, webhookId, since)).toEqual({ events: 4 });
    expect(await backfill(test.ctx, companyId, webhookId, since)).toEqual({ sent: 4, more: false });
    expect(await countBackfill(test.ctx, companyId, webhookId, since)).toEqual({ events: 0 });
    await pump(bed.deps);

    const arrived = bed.receiver.received.map((request) => JSON.parse(request.body) as { id: string; type: string; candidate: { id: string } });
    const expected = async (candidateId: string) =>
      (await eventsOf(test.ctx, candidateId))
        .filter((event) => event.type === "candidate.submitted" || event.type === "candidate.ready")
        .map((event) => event.id);
    expect(arrived.filter((body) => body.candidate.id === first.id).map((body) => body.id)).toEqual(await expected(first.id));
    expect(arrived.filter((body) => body.candidate.id === second.id).map((body) => body.id)).toEqual(await expected(second.id));
    expect(arrived.map((body) => body.candidate.id).sort()).toEqual([first.id, first.id, second.id, second.id].sort());
    expect(arrived.some((body) => [tooOld.id, third.id].includes(body.candidate.id))).toBe(false);
    expect(await backfill(test.ctx, companyId, webhookId, since)).toEqual({ sent: 0, more: false });
  });

  it("goes 1,000 at a time, oldest first, saying when more remain, with each candidate's chain in order", async () => {
    const candidate = await submitted("busy@example.com");
    for (let change = 0; change <= maxBackfillBatch; change++) {
      await changeStatus(test.ctx, candidate.id, { to: change % 2 === 0 ? "shortlisted" : "on_hold", by: { type: "team", name: "Ana" } });
    }
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.status_changed"] },
      allowReceiver(bed.receiver),
    );
    const since = new Date(0);
    expect(await countBackfill(test.ctx, companyId, webhookId, since)).toEqual({ events: maxBackfillBatch + 1 });
    expect(await backfill(test.ctx, companyId, webhookId, since)).toEqual({ sent: maxBackfillBatch, more: true });
    expect(await backfill(test.ctx, companyId, webhookId, since)).toEqual({ sent: 1, more: false });
    const history = (await eventsOf(test.ctx, candidate.id)).filter((event) => event.type === "candidate.status_changed");
    const messages = await test.ctx.db
      .select({ id: webhookMessages.id, eventId: webhookMessages.eventId, state: webhookQueue.state })
      .from(webhookMessages)
      .innerJoin(webhookQueue, and(eq(webhookQueue.messageId, webhookMessages.id), eq(webhookQueue.historyAt, webhookMessages.historyAt)))
      .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.candidateId, candidate.id)))
      .orderBy(asc(webhookMessages.eventTxId), asc(webhookMessages.eventSeq));
    expect(messages.map((message) => message.eventId)).toEqual(history.map((event) => event.id));
    // Only the chain's head (the oldest event) is ready; the rest wait their turn.
    expect(messages.filter((message) => message.state !== "held").map((message) => message.eventId)).toEqual([history[0]!.id]);
    expect(messages[0]!.state).toBe("ready");
    expect(await readyMessageIds(bed.deps)).toEqual([messages[0]!.id]);
  }, 90_000); // 1,001 status changes, one transaction each: a loaded machine needs more than the usual 30 s

  it("is refused while the webhook is off, and for another company's webhook", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    await setWebhookEnabled(test.ctx, companyId, webhookId, false);
    await expect(countBackfill(test.ctx, companyId, webhookId, new Date(0))).rejects.toThrow("Turn the webhook on before sending it past events.");
    await expect(backfill(test.ctx, companyId, webhookId, new Date(0))).rejects.toThrow("Turn the webhook on before sending it past events.");
    const other = await makeCompany(test.ctx, "Other");
    await expect(backfill(test.ctx, other, webhookId, new Date(0))).rejects.toThrow(/No webhook/);
  });

  it("counts and sends past events at once while another session of the server sits in a transaction with an id", async () => {
    const since = test.clock.now();
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    // An operator's `BEGIN; SELECT pg_current_xact_id();` left open: it writes
    // no company's history, so it holds none back (server/domain/history-lock.ts).
    const idle = postgres(test.url, { max: 1, onnotice: () => {} });
    try {
      const session = await idle.reserve();
      await session`begin`;
      await session`select pg_current_xact_id()`;
      const candidate = await submitted("late@example.com");
      const history = await eventsOf(test.ctx, candidate.id);
      expect(await countBackfill(test.ctx, companyId, webhookId, since)).toEqual({ events: history.length });
      expect(await backfill(test.ctx, companyId, webhookId, since)).toEqual({ sent: history.length, more: false });
      await session`rollback`;
      session.release();
    } finally {
      await idle.end();
    }
  });
});
