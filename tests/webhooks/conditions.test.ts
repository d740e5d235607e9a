/**
 * Conditions: a webhook sent only the status changes to Shortlisted gets
 * exactly those events of a simulated history, each candidate's in the
 * history's order, and a refused one still holds its candidate's later
 * matching message back; non-matching events never become messages. Score
 * conditions, backfill (which applies them), samples (which ignore them) and
 * the words the pages show.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookMessages, webhookQueue } from "@/db/schema";
import { simulate } from "@/server/demo/simulate";
import { createUser } from "@/server/domain/accounts";
import { saveScore, storeRecording } from "@/server/domain/ai-interview";
import { submitAttempt } from "@/server/domain/attempts";
import { changeStatus } from "@/server/domain/statuses";
import { backfill, countBackfill } from "@/server/webhooks/admin/backfill";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { createWebhook, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { describeConditions, webhookConditionsSchema } from "@/server/webhooks/delivery/conditions";
import { retryDelaysMs } from "@/server/webhooks/delivery/retry-schedule";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, recording, score, startCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;

beforeEach(async () => {
  companyId = await makeCompany(test.ctx, "Acme");
  await createUser(test.ctx, { companyId, email: `admin-${companyId}@example.com`, name: "Admin", role: "admin", password: "long enough password" });
});

const bodiesAt = (path: string) =>
  bed.receiver.received
    .filter((request) => request.path === path)
    .map((request) => JSON.parse(request.body) as { id: string; type: string; candidate: { id: string; score: number | null }; change: { to: string } | null });

/** The history's status changes to `to`, in the history's order. */
async function statusChangesTo(to: string) {
  const rows = await test.ctx.db.execute<{ id: string; candidate_id: string }>(sql`
    select id, candidate_id from events
    where company_id = ${companyId} and type = 'candidate.status_changed' and change ->> 'to' = ${to}
    order by tx_id, seq`);
  return [...rows];
}

const byCandidate = (rows: Array<{ id: string; candidate: string }>) => {
  const chains = new Map<string, string[]>();
  for (const { id, candidate } of rows) chains.set(candidate, [...(chains.get(candidate) ?? []), id]);
  return chains;
};

describe("a condition on the new status", () => {
  it("sends exactly the status changes to Shortlisted of a simulated history, in each candidate's order, and a refused one still holds the next back", async () => {
    const conditioned = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url("/shortlisted"), eventTypes: ["candidate.status_changed"], conditions: { statusTo: ["shortlisted"] } },
      allowReceiver(bed.receiver),
    );
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/all"), eventTypes: ["candidate.status_changed"] }, allowReceiver(bed.receiver));
    await simulate(test.ctx, { companyId, interviews: 2, candidates: 60, seed: 26 });

    // One candidate shortlisted twice, with other changes between: its first matching message is refused once.
    const interview = await makeInterview(test.ctx, companyId);
    const held = await startCandidate(test.ctx, interview.id, { email: "held@example.com" });
    await completeSteps(test.ctx, interview, held.id);
    await saveScore(test.ctx, held.id, score(80));
    await storeRecording(test.ctx, held.id, recording);
    await submitAttempt(test.ctx, held.id);
    const by = { type: "team" as const, name: "Ana" };
    for (const to of ["on_hold", "shortlisted", "rejected", "shortlisted"] as const) await changeStatus(test.ctx, held.id, { to, by });

    const expected = await statusChangesTo("shortlisted");
    expect(expected.length).toBeGreaterThan(2);
    const [firstOfHeld, secondOfHeld] = expected.filter((row) => row.candidate_id === held.id);
    bed.receiver.answer((request) =>
      request.path === "/shortlisted" && JSON.parse(request.body).id === firstOfHeld!.id && request.headers["service-delivery-attempt"] === "1"
        ? { status: 503, body: "busy" }
        : { status: 200, body: "ok" },
    );
    await pump(bed.deps);

    // Waiting for its retry: the candidate's second Shortlisted is held behind it; nobody else's waits.
    const waiting = await test.ctx.db
      .select({ eventId: webhookMessages.eventId, state: webhookQueue.state })
      .from(webhookMessages)
      .innerJoin(webhookQueue, and(eq(webhookQueue.messageId, webhookMessages.id), eq(webhookQueue.historyAt, webhookMessages.historyAt)))
      .where(and(eq(webhookMessages.webhookId, conditioned.id), eq(webhookMessages.status, "pending")));
    expect(waiting.sort((a, b) => a.state.localeCompare(b.state))).toEqual([
      { eventId: secondOfHeld!.id, state: "held" },
      { eventId: firstOfHeld!.id, state: "ready" },
    ]);
    test.clock.advance(retryDelaysMs[0]!);
    await pump(bed.deps);

    // Exactly the matching events, no message for any other, each candidate's in the history's order.
    const messages = await test.ctx.db.select({ eventId: webhookMessages.eventId }).from(webhookMessages).where(eq(webhookMessages.webhookId, conditioned.id));
    expect(messages.map((message) => message.eventId).sort()).toEqual(expected.map((row) => row.id).sort());
    const accepted = bodiesAt("/shortlisted").filter((body, index, all) => all.findIndex((other) => other.id === body.id) === index);
    expect(accepted.every((body) => body.type === "candidate.status_changed" && body.change?.to === "shortlisted")).toBe(true);
    expect(byCandidate(accepted.map((body) => ({ id: body.id, candidate: body.candidate.id })))).toEqual(
      byCandidate(expected.map((row) => ({ id: row.id, candidate: row.candidate_id }))),
    );
    // The webhook without a condition got every status change, the ones held back here included.
    expect(bodiesAt("/all").length).toBeGreaterThan(accepted.length);
  });
});

describe("a condition on the score or recommendation", () => {
  it("sends scored and ready only for a score at least N or a chosen recommendation; other types pass; backfill applies it; a sample ignores it", async () => {
    const interview = await makeInterview(test.ctx, companyId);
    const conditions = { minScore: 70 };
    const high = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url("/high"), eventTypes: ["candidate.submitted", "candidate.scored", "candidate.ready"], conditions },
      allowReceiver(bed.receiver),
    );
    const consider = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url("/consider"), eventTypes: ["candidate.ready"], conditions: { recommendations: ["consider"] } },
      allowReceiver(bed.receiver),
    );
    const submitWithScore = async (email: string, value: number, recommendation: "recommended" | "consider") => {
      const candidate = await startCandidate(test.ctx, interview.id, { email });
      await completeSteps(test.ctx, interview, candidate.id);
      await saveScore(test.ctx, candidate.id, { ...score(value), recommendation });
      await storeRecording(test.ctx, candidate.id, recording);
      await submitAttempt(test.ctx, candidate.id);
      return candidate;
    };
    const strong = await submitWithScore("strong@example.com", 82, "recommended");
    const weak = await submitWithScore("weak@example.com", 55, "consider");
    await pump(bed.deps);
    expect(bodiesAt("/high").map((body) => [body.type, body.candidate.id])).toEqual([
      ["candidate.submitted", strong.id],
      ["candidate.scored", strong.id],
      ["candidate.ready", strong.id],
      ["candidate.submitted", weak.id],
    ]);
    expect(bodiesAt("/consider").map((body) => [body.type, body.candidate.id])).toEqual([["candidate.ready", weak.id]]);

    // Sending past events to a webhook whose condition changed: only what the new condition lets through.
    await updateWebhook(test.ctx, companyId, high.id, { conditions: { minScore: 50 } }, allowReceiver(bed.receiver));
    expect(await countBackfill(test.ctx, companyId, high.id, new Date(0))).toEqual({ events: 2 });
    expect(await backfill(test.ctx, companyId, high.id, new Date(0))).toEqual({ sent: 2, more: false });
    expect(await countBackfill(test.ctx, companyId, consider.id, new Date(0))).toEqual({ events: 0 });

    // A sample goes whatever the condition: it is about a made-up candidate.
    await sendSample(test.ctx, companyId, consider.id, interview.id, "candidate.ready");
    bed.receiver.received.length = 0;
    await pump(bed.deps);
    expect(bodiesAt("/high").map((body) => [body.type, body.candidate.id])).toEqual([
      ["candidate.scored", weak.id],
      ["candidate.ready", weak.id],
    ]);
    expect(bodiesAt("/consider")).toHaveLength(1);
  });
});

describe("conditions as entered and in words", () => {
  it("are checked, emptied to none, and said in words for the event types chosen", () => {
    expect(webhookConditionsSchema.parse({})).toBeNull();
    expect(webhookConditionsSchema.parse(null)).toBeNull();
    expect(webhookConditionsSchema.safeParse({ statusTo: [] }).error?.issues[0]?.message).toBe(
      "Choose at least one status, or no condition on status changes.",
    );
    expect(webhookConditionsSchema.safeParse({ minScore: 101 }).error?.issues[0]?.message).toBe("The lowest score is 0 to 100.");
    expect(webhookConditionsSchema.safeParse({ minScore: 7.5 }).success).toBe(false);
    expect(webhookConditionsSchema.safeParse({ statusTo: ["hired"] }).success).toBe(false);
    expect(webhookConditionsSchema.safeParse({ expression: "score > 5" }).success).toBe(false);
    const conditions = webhookConditionsSchema.parse({
      statusTo: ["shortlisted", "passed"],
      minScore: 70,
      recommendations: ["strongly_recommend", "recommended"],
    });
    expect(describeConditions(conditions, ["candidate.status_changed", "candidate.scored", "candidate.ready"])).toEqual([
      "Status changes: only when the new status is Shortlisted or Passed.",
      "Scored and ready: only when the score is at least 70, or the recommendation is Strongly recommend or Recommended.",
    ]);
    expect(describeConditions(conditions, ["candidate.ready"])).toEqual([
      "Ready: only when the score is at least 70, or the recommendation is Strongly recommend or Recommended.",
    ]);
    expect(describeConditions(null, ["candidate.ready"])).toEqual([]);
  });
});
