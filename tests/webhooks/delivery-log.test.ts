/**
 * What the delivery log answers: the exact body each attempt sent, the
 * candidate's name, search by event or candidate id prefix (through the
 * prefix indexes), resend links, the count before resending, texts in words,
 * and what members never get (checked at the tRPC level).
 */
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { errorClassLabels } from "@/app/settings/webhooks/error-class-labels";
import { deliveryErrorClasses, webhookAttempts, webhookMessages } from "@/db/schema";
import type { Member } from "@/server/auth/members";
import { saveAnswers, submitAttempt } from "@/server/domain/attempts";
import type { LoadedInterview } from "@/server/domain/interviews";
import { idPrefixes } from "@/server/ids";
import { settingsRouter } from "@/server/settings/router";
import { logSearchPrefixes, logSearchProblem } from "@/server/settings/webhooks/log-search.types";
import { countFailedSince, resendFailedSince, resendMessage } from "@/server/webhooks/admin/resend";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { answerDeadlineMs } from "@/server/webhooks/delivery/delivery-client";
import { keptBodyBytes, keptRequestBody } from "@/server/webhooks/delivery/record";
import { webhookOffReason } from "@/server/webhooks/delivery/unsent-reasons";
import { listAttempts, listMessages, messageListQuery } from "@/server/webhooks/views/delivery-log";
import { deleteExpiredHistory } from "@/worker/tasks/history-partitions";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, completeSteps, makeCompany, scoreAndRecord, startCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: LoadedInterview;

beforeEach(async () => ({ companyId, interview } = await companyWithInterview(test.ctx)));

async function submitted(email = "ada@example.com", answer?: string) {
  const candidate = await startCandidate(test.ctx, interview.id, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  if (answer) await saveAnswers(test.ctx, candidate.id, { [interview.questions.find((q) => q.type === "open_text")!.id]: answer });
  await scoreAndRecord(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  return candidate;
}

const webhookFor = async (eventTypes: Array<"candidate.submitted" | "candidate.ready"> = ["candidate.submitted"], company = companyId) =>
  (await createWebhook(test.ctx, company, { url: bed.receiver.url(), eventTypes }, allowReceiver(bed.receiver))).id;

/** The settings API as a signed-in admin or member of the company calls it from the pages. */
function settingsAs(role: Member["role"], company = companyId) {
  const member: Member = { userId: "user_test", companyId: company, companyName: "Acme", role, name: `A ${role}`, email: `${role}@acme.example` };
  return settingsRouter.createCaller({ member, domain: test.ctx, sql: test.handle.sql, jsonBody: true }).webhooks;
}

describe("the body of every attempt", () => {
  it("is kept whole up to 64 KiB, else its first 64 KiB cut where a UTF-8 character starts, with the full size", () => {
    const small = `{"name":"Zoë 🙂"}`;
    expect(keptRequestBody(small)).toEqual({ request_body: small, request_body_bytes: Buffer.byteLength(small) });
    const exact = "a".repeat(keptBodyBytes);
    expect(keptRequestBody(exact)).toEqual({ request_body: exact, request_body_bytes: keptBodyBytes });
    // "é" is 2 bytes, "🙂" 4: each straddles the 64 KiB mark and must be left out whole.
    for (const [wide, size] of [
      ["é", 2],
      ["🙂", 4],
    ] as const) {
      const body = `${"a".repeat(keptBodyBytes - 1)}${wide}tail`;
      const kept = keptRequestBody(body);
      expect(kept.request_body).toBe("a".repeat(keptBodyBytes - 1));
      expect(kept.request_body_bytes).toBe(keptBodyBytes - 1 + size + 4);
    }
  });

  it("is what the receiver got, byte for byte, for events and samples; admins see it, members get no body field", async () => {
    const webhookId = await webhookFor();
    await submitted();
    await sendSample(test.ctx, companyId, webhookId, interview.id);
    await pump(bed.deps);
    const received = bed.receiver.received.map((request) => request.body);
    expect(received).toHaveLength(2);
    const { messages } = await listMessages(test.handle.sql, companyId, webhookId, { limit: 10 }, test.clock.now());
    for (const message of messages) {
      const [attempt] = await listAttempts(test.handle.sql, companyId, message);
      expect(received).toContain(attempt!.request_body);
      expect(attempt!.request_body_bytes).toBe(Buffer.byteLength(attempt!.request_body!));

      const asAdmin = await settingsAs("admin").message({ messageId: message.id });
      expect(asAdmin.attempts[0]).toMatchObject({ requestBody: attempt!.request_body, requestBodyBytes: attempt!.request_body_bytes });
      const asMember = await settingsAs("member").message({ messageId: message.id });
      for (const seen of asMember.attempts) {
        expect(Object.keys(seen).sort()).toEqual(["address", "attempt", "durationMs", "errorClass", "responseStatus", "startedAt", "succeeded"]);
      }
      expect(JSON.stringify(asMember)).not.toContain('"api_version"');
    }
  });

  it("of a body over 64 KiB keeps its first 64 KiB as valid text and says how big the whole was", async () => {
    const webhookId = await webhookFor();
    await submitted("long@example.com", "Zoë écrit beaucoup. ".repeat(4000));
    await pump(bed.deps);
    const sent = bed.receiver.received[0]!.body;
    expect(Buffer.byteLength(sent)).toBeGreaterThan(keptBodyBytes);
    const [message] = (await listMessages(test.handle.sql, companyId, webhookId, { limit: 1 }, test.clock.now())).messages;
    const [attempt] = await listAttempts(test.handle.sql, companyId, message!);
    expect(attempt!.request_body_bytes).toBe(Buffer.byteLength(sent));
    expect(Buffer.byteLength(attempt!.request_body!)).toBeLessThanOrEqual(keptBodyBytes);
    expect(Buffer.byteLength(attempt!.request_body!)).toBeGreaterThan(keptBodyBytes - 4);
    expect(sent.startsWith(attempt!.request_body!)).toBe(true);
  });

  it("goes with its message after the log's 30 days", async () => {
    const webhookId = await webhookFor();
    const now = test.clock.now();
    test.clock.set(new Date(now.getTime() - 31 * 24 * 3600_000));
    await submitted("old@example.com");
    await pump(bed.deps);
    test.clock.set(now);
    const before = await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, webhookId));
    expect(before.length).toBeGreaterThan(0);
    await deleteExpiredHistory(bed.deps);
    expect(await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, webhookId))).toEqual([]);
  });
});

describe("log rows", () => {
  it("name the candidate beside the id; a sample's made-up candidate; a candidate that is gone by its id alone", async () => {
    const webhookId = await webhookFor();
    const candidate = await submitted();
    await sendSample(test.ctx, companyId, webhookId, interview.id);
    await test.ctx.db.insert(webhookMessages).values({
      id: "msg_gone",
      companyId,
      webhookId,
      origin: "resend",
      eventId: "evt_gone",
      eventType: "candidate.submitted",
      candidateId: "cand_gone",
      status: "failed",
      nextAttemptAt: test.clock.now(),
      createdAt: test.clock.now(),
    });
    await pump(bed.deps);
    const { messages } = await settingsAs("member").messages({ id: webhookId });
    const named = Object.fromEntries(messages.map((message) => [message.candidateId ?? "sample", message.candidateName]));
    expect(named).toEqual({ [candidate.id]: "Ada Lovelace", sample: "Sam Sample", cand_gone: null });
  });

  it("link a resent message to its newest resend, and each resend to what it resends", async () => {
    const webhookId = await webhookFor();
    await submitted();
    await pump(bed.deps);
    const [original] = (await listMessages(test.handle.sql, companyId, webhookId, { limit: 1 }, test.clock.now())).messages;
    const first = await resendMessage(test.ctx, companyId, original!.id);
    test.clock.advance(1000);
    const second = await resendMessage(test.ctx, companyId, original!.id);
    await pump(bed.deps);
    const { messages } = await settingsAs("admin").messages({ id: webhookId });
    const byId = new Map(messages.map((message) => [message.id, message]));
    expect(byId.get(original!.id)).toMatchObject({ resentFrom: null, resentTo: { id: second.id, status: "succeeded" } });
    expect(byId.get(first.id)).toMatchObject({ origin: "resend", resentFrom: original!.id, resentTo: null });
    expect(byId.get(second.id)).toMatchObject({ resentFrom: original!.id });
    expect((await settingsAs("admin").message({ messageId: original!.id })).message.resentTo?.id).toBe(second.id);
  });

  it("say why a message ended unsent when the webhook was turned off, with or without an attempt", async () => {
    const webhookId = await webhookFor(["candidate.submitted", "candidate.ready"]);
    bed.receiver.answer(() => ({ status: 500 }));
    await submitted();
    await pump(bed.deps);
    await setWebhookEnabled(test.ctx, companyId, webhookId, false);
    const { messages } = await settingsAs("admin").messages({ id: webhookId });
    expect(messages.map((message) => [message.status, message.attemptCount > 0, message.failureReason]).sort()).toEqual([
      ["failed", false, webhookOffReason],
      ["failed", true, webhookOffReason],
    ]);
    expect(webhookOffReason).toMatch(/^Not sent: the webhook was turned off.*Turn the webhook back on, then resend/);
  });

  it("name every error class in words, the timeout with the real deadline", () => {
    for (const errorClass of deliveryErrorClasses) expect(errorClassLabels[errorClass]).toMatch(/^[A-Z][a-z]/);
    expect(errorClassLabels.timeout).toBe(`Timed out after ${answerDeadlineMs / 1000} s`);
  });
});

describe("searching the log", () => {
  it("tells event ids from candidate ids by the prefixes ids really have", () => {
    expect(logSearchPrefixes).toEqual({ event: `${idPrefixes.event}_`, candidate: `${idPrefixes.candidate}_` });
  });

  it("finds messages by the start of an event id or a candidate id, within the webhook and the company only", async () => {
    const webhookId = await webhookFor();
    const sibling = await webhookFor();
    const ada = await submitted("ada@example.com");
    const bob = await submitted("bob@example.com");
    const { eventId: sampleEvent } = await sendSample(test.ctx, companyId, webhookId, interview.id);
    await pump(bed.deps);
    const admin = settingsAs("admin");
    const all = (await admin.messages({ id: webhookId })).messages;
    const adaMessage = all.find((message) => message.candidateId === ada.id)!;

    const byEvent = await admin.messages({ id: webhookId, search: adaMessage.eventId.slice(0, 12) });
    expect(byEvent.messages.map((message) => message.id)).toEqual([adaMessage.id]);
    expect((await admin.messages({ id: webhookId, search: ` ${sampleEvent} ` })).messages.map((message) => message.isTest)).toEqual([true]);
    const byCandidate = await admin.messages({ id: webhookId, search: bob.id.slice(0, 9) });
    expect(byCandidate.messages.map((message) => message.candidateId)).toEqual([bob.id]);
    // The same event went to the sibling webhook too: a search stays within its webhook.
    expect((await admin.messages({ id: sibling, search: adaMessage.eventId })).messages).toHaveLength(1);
    expect((await admin.messages({ id: sibling, search: adaMessage.eventId })).messages[0]!.id).not.toBe(adaMessage.id);
    // Another company sees neither the webhook nor its messages.
    const other = await makeCompany(test.ctx, "Other");
    await expect(settingsAs("admin", other).messages({ id: webhookId, search: adaMessage.eventId })).rejects.toThrow(/No webhook/);
    expect(
      (await listMessages(test.handle.sql, other, webhookId, { limit: 10, search: { field: "event", prefix: "evt_" } }, test.clock.now())).messages,
    ).toEqual([]);
  });

  it("matches `_` and `%` as themselves, not as wildcards", async () => {
    const webhookId = await webhookFor();
    const message = (id: string, eventId: string) => ({
      id,
      companyId,
      webhookId,
      origin: "resend" as const,
      eventId,
      eventType: "candidate.submitted" as const,
      status: "failed" as const,
      nextAttemptAt: test.clock.now(),
      createdAt: test.clock.now(),
    });
    await test.ctx.db.insert(webhookMessages).values([message("msg_a", "evtXabc"), message("msg_b", "evt_abc"), message("msg_c", "evt_%bc")]);
    const search = async (text: string) => (await settingsAs("admin").messages({ id: webhookId, search: text })).messages.map((row) => row.id).sort();
    expect(await search("evt_")).toEqual(["msg_b", "msg_c"]);
    expect(await search("evt_%")).toEqual(["msg_c"]);
    expect(await search("evt__bc")).toEqual([]);
  });

  it("refuses anything else with a clear message", async () => {
    const webhookId = await webhookFor();
    for (const text of ["msg_123", "ada@example.com", "EVT_abc", "%"]) {
      await expect(settingsAs("admin").messages({ id: webhookId, search: text })).rejects.toThrow(logSearchProblem);
    }
  });

  it("is served by the prefix indexes (EXPLAIN), not by reading the webhook's whole log", async () => {
    const webhookId = await webhookFor();
    await test.handle.sql`
      insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, status, next_attempt_at, created_at)
      select 'msg_bulk' || n, ${companyId}, ${webhookId}, case when n % 10 = 0 then 'resend' else 'event' end, 'evt_' || md5(n::text),
        'candidate.submitted', 'cand_' || md5((n / 3)::text), 'succeeded', now(), now() - (n || ' seconds')::interval
      from generate_series(1, 20000) n`;
    await test.handle.sql`analyze webhook_messages`;
    const plan = async (field: "event" | "candidate", prefix: string) => {
      const query = messageListQuery(test.handle.sql, companyId, webhookId, { limit: 25, search: { field, prefix } }, new Date());
      const [row] = await test.handle.sql`explain (format json) ${query}`;
      return JSON.stringify(row!["QUERY PLAN"]);
    };
    const events = await plan("event", "evt_c4ca");
    expect(events).toContain("webhook_messages_event_key");
    expect(events).toContain("webhook_messages_other_event_idx");
    expect(await plan("candidate", "cand_c4ca")).toContain("webhook_messages_candidate_idx");
    const [{ found }] = (await test.handle.sql`select count(*)::int as found from (${messageListQuery(
      test.handle.sql,
      companyId,
      webhookId,
      { limit: 100, search: { field: "event", prefix: "evt_c4ca" } },
      new Date(),
    )}) m`) as unknown as [{ found: number }];
    expect(found).toBeGreaterThan(0);
  });
});

describe("resending every failed message since a time", () => {
  it("is counted first, exactly as the resend will take it, capped at 1,000 at a time", async () => {
    const webhookId = await webhookFor();
    const since = new Date(test.clock.now().getTime() - 60_000);
    await test.handle.sql`
      insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, status, next_attempt_at, created_at)
      select 'msg_failed' || n, ${companyId}, ${webhookId}, 'resend', 'evt_failed' || n, 'candidate.submitted', 'failed', now(), ${test.clock.now()}
      from generate_series(1, 1001) n`;
    const admin = settingsAs("admin");
    const input = { id: webhookId, since: since.toISOString() };
    expect(await admin.countFailedSince(input)).toEqual({ failed: 1001, resendNow: 1000 });
    expect(await resendFailedSince(test.ctx, companyId, webhookId, since)).toEqual({ resent: 1000, more: true });
    expect(await countFailedSince(test.ctx, companyId, webhookId, since)).toEqual({ failed: 1, resendNow: 1 });
    const resends = await test.ctx.db.execute<{ linked: number }>(
      sql`select count(*)::int as linked from webhook_messages where webhook_id = ${webhookId} and resent_from like 'msg\\_failed%'`,
    );
    expect([...resends][0]!.linked).toBe(1000);
    await expect(settingsAs("member").countFailedSince(input)).rejects.toThrow("Only admins can do this.");
    await expect(settingsAs("admin", await makeCompany(test.ctx, "Other")).countFailedSince(input)).rejects.toThrow(/No webhook/);
  });
});

describe("inputs PostgreSQL cannot hold", () => {
  it("are refused as bad requests (ids or searches with NUL) or clamped (times outside years 1 to 9999), never a server error", async () => {
    const webhookId = await webhookFor();
    const admin = settingsAs("admin");
    for (const call of [
      () => admin.get({ id: "wh_\0" }),
      () => admin.message({ messageId: "msg_\0" }),
      () => admin.messages({ id: webhookId, search: "evt_\0" }),
      () => admin.countBackfill({ id: "wh_\0", since: "2026-01-01T00:00:00Z" }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    for (const since of ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59-23:59"]) {
      await expect(admin.countFailedSince({ id: webhookId, since })).resolves.toMatchObject({ failed: 0 });
      await expect(admin.countBackfill({ id: webhookId, since })).resolves.toMatchObject({ events: 0 });
      await expect(admin.messages({ id: webhookId, from: since, to: since })).resolves.toBeTruthy();
    }
  });
});
