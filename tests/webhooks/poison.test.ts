/**
 * One webhook's bad data hurts only its own messages. Beside a healthy webhook
 * of another company, which must receive every one of its events, each case
 * poisons one webhook (or one of its messages) in a way our side cannot send:
 * a signing secret, a previous secret or custom headers that cannot be
 * decrypted, a message whose event or candidate is gone, one whose body
 * cannot be put together, and an address the SSRF guard refuses when it
 * connects. The real dispatcher runs them (after one claim that takes both
 * webhooks' messages together), and the poisoned messages must be recorded
 * with a reason the delivery log shows, the queue keeping why for the ones our
 * side could not build, and the gauges must say so.
 */
import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { connect } from "node:net";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { candidates, events, webhookAttempts, webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import type { LoadedInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { databaseGauges } from "@/server/observability/database-gauges";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { revealWebhookSecret, rotateWebhookSecret, unreadableSecretToReveal } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { createDeliveryClient, type DeliveryClient, type OpenSocket, type Resolver } from "@/server/webhooks/delivery/delivery-client";
import { deliverDue, startDispatcher } from "@/server/webhooks/delivery/dispatcher";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { eventGoneReason, unbuildableBodyReason, unreadableHeadersReason, unreadableSecretReason } from "@/server/webhooks/delivery/unsent-reasons";
import { getMessage, listAttempts } from "@/server/webhooks/views/delivery-log";
import type { WorkerDeps } from "@/worker/deps";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, submitCandidate } from "../support/fixtures";
import { parsePrometheusText } from "../support/prometheus-text";
import { assertQueueInvariants } from "../support/queue-invariants";
import { useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);

/** The poisoned address: saved while its name answered public, it resolves into a private network when a delivery connects. */
const privateHost = "private.example.com";
const resolver: Resolver = async (host) => {
  if (host === "localhost") return ["127.0.0.1"];
  if (host === privateHost) return ["10.1.2.3"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};
const publicOnSave: Resolver = async () => ["93.184.216.34"];
/** Every connection the guard let through: only ever the receiver's. */
const connections: string[] = [];
let deps: WorkerDeps;
let client: DeliveryClient;

beforeAll(() => {
  const openSocket: OpenSocket = (target) => {
    connections.push(`${target.host}:${target.port}`);
    if (target.host !== "127.0.0.1" || target.port !== bed.receiver.port) throw new Error(`test refused to connect to ${target.host}:${target.port}`);
    return connect(target);
  };
  client = createDeliveryClient({ allowTargets: [bed.receiver.target], extraCa: bed.receiver.ca, resolver, openSocket });
  deps = { ...bed.deps, client };
});
afterAll(async () => {
  await client.close();
  expect(connections.every((target) => target === `127.0.0.1:${bed.receiver.port}`)).toBe(true);
});

type Side = { companyId: string; interview: LoadedInterview; webhookId: string; path: string; candidateIds: string[] };
let healthy: Side;
let poisoned: Side;
let sides = 0;

/** A company with a webhook for every event type and two submitted candidates (two chains), not fanned out yet. */
async function side(name: string, url?: string): Promise<Side> {
  const { companyId, interview } = await companyWithInterview(test.ctx, name);
  const path = `/${name.toLowerCase()}-${++sides}`;
  const { id: webhookId } = await createWebhook(
    test.ctx,
    companyId,
    { url: url ?? bed.receiver.url(path) },
    url ? { allowTargets: [], resolver: publicOnSave } : { allowTargets: [bed.receiver.target] },
  );
  const candidateIds: string[] = [];
  for (const email of ["ada@example.com", "grace@example.com"]) candidateIds.push((await submitCandidate(test.ctx, interview, { email })).id);
  return { companyId, interview, webhookId, path: url ? new URL(url).pathname : path, candidateIds };
}

/** Both sides' history queued: fan-out for each company. */
async function fanOutBoth() {
  await fanOutCompany(test.ctx, healthy.companyId);
  await fanOutCompany(test.ctx, poisoned.companyId);
}

beforeEach(async () => {
  healthy = await side("Healthy");
});

/** A ciphertext of our format made under another APP_SECRET: well formed, but its tag fails here. */
function encryptedWithAnotherAppSecret(text: string) {
  const key = Buffer.from(hkdfSync("sha256", "another-app-secret-0123456789abcdefghijklmnop", "interview-api", "webhook-secret-encryption", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

const messagesOf = (webhookId: string) =>
  test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId)).orderBy(asc(webhookMessages.seq));

/** The event ids the receiver got on `path`, in the order they came. */
const sentTo = (path: string) => bed.receiver.received.filter((request) => request.path === path).map((request) => request.headers["service-event-id"]);

/** The webhook's messages that the dispatcher could still claim now on the test clock (running, or ready and due). */
async function claimableNow(webhookId: string) {
  const [row] = await test.handle.sql<Array<{ count: number }>>`
    select count(*)::int as count from webhook_queue
    where webhook_id = ${webhookId} and (state = 'running' or (state = 'ready' and due_at <= ${test.clock.now().toISOString()}::timestamptz))`;
  return row!.count;
}

/**
 * One claim that takes both webhooks' first messages together (poison is per
 * message, never the whole claim), then the real dispatcher until the healthy
 * webhook has every message delivered and the poisoned one has nothing left
 * it could claim now.
 */
async function deliverAll() {
  const firstRound = await deliverDue(deps, { limit: 100 });
  const healthyIds = new Set((await messagesOf(healthy.webhookId)).map((message) => message.id));
  const poisonedIds = new Set((await messagesOf(poisoned.webhookId)).map((message) => message.id));
  expect([...firstRound.keys()].filter((id) => healthyIds.has(id))).toHaveLength(healthy.candidateIds.length);
  expect([...firstRound.keys()].filter((id) => poisonedIds.has(id))).toHaveLength(poisoned.candidateIds.length);
  for (const id of healthyIds) if (firstRound.has(id)) expect(firstRound.get(id)).toBe("succeeded");

  const recordings = createDatabase(test.url, { max: 1 });
  const dispatcher = startDispatcher({ ...deps, claims: test.ctx.db, recordings: recordings.db }, { slots: 8, perWebhook: 4, pollMs: 25 });
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const pending = (await messagesOf(healthy.webhookId)).filter((message) => message.status !== "succeeded").length;
      if (pending === 0 && (await claimableNow(poisoned.webhookId)) === 0 && (await claimableNow(healthy.webhookId)) === 0) break;
      if (Date.now() > deadline) throw new Error(`deliverAll: ${pending} healthy messages not delivered within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await dispatcher.stop();
    await recordings.close();
  }
}

/** The healthy webhook got every one of its events, once each, each chain in order. */
async function expectHealthyGotEverything() {
  const messages = await messagesOf(healthy.webhookId);
  expect(messages.length).toBeGreaterThanOrEqual(2 * healthy.candidateIds.length);
  expect(messages.map((message) => message.status)).toEqual(messages.map(() => "succeeded"));
  for (const candidateId of healthy.candidateIds) {
    const chain = messages.filter((message) => message.candidateId === candidateId).map((message) => message.eventId);
    const sent = bed.receiver.received
      .filter((request) => request.path === healthy.path && (JSON.parse(request.body) as { candidate: { id: string } }).candidate.id === candidateId)
      .map((request) => request.headers["service-event-id"]);
    expect(sent).toEqual(chain);
  }
}

/** The gauges as a scrape reads them (a registry of its own: no answer kept from an earlier read). */
async function gauges() {
  const families = parsePrometheusText(await databaseGauges(test.handle.sql).text());
  const value = (name: string, labels: Record<string, string> = {}) =>
    families.get(name)!.samples.find((sample) => Object.entries(labels).every(([key, label]) => sample.labels[key] === label))!.value;
  return {
    unsendable: value("interview_webhook_messages_unsendable"),
    oldestDue: value("interview_webhook_oldest_due_message_age_seconds"),
    held: value("interview_webhook_messages_waiting", { state: "held" }),
    ready: value("interview_webhook_messages_waiting", { state: "ready" }),
    running: value("interview_webhook_messages_waiting", { state: "running" }),
  };
}

/**
 * Ten minutes pass for the poisoned webhook's queue rows on the database's
 * clock, which the gauges read (`now()`; the test clock is a day behind it):
 * they were queued ten minutes ago, and its chain heads' retries are due in a
 * minute or, `due`, fell due ten minutes ago.
 */
async function tenMinutesPass({ due }: { due: boolean }) {
  await test.handle.sql`
    update webhook_queue set queued_at = now() - interval '10 minutes',
      due_at = case when state = 'held' then due_at when ${due} then now() - interval '10 minutes' else now() + interval '1 minute' end
    where webhook_id = ${poisoned.webhookId}`;
}

describe("a webhook whose request our side cannot build", () => {
  const cases = [
    {
      name: "signing secret cannot be decrypted (saved under another APP_SECRET)",
      reason: unreadableSecretReason,
      poison: { secretCiphertext: encryptedWithAnotherAppSecret("whsec_from_elsewhere") },
    },
    {
      name: "signing secret is garbage",
      reason: unreadableSecretReason,
      poison: { secretCiphertext: "not a ciphertext at all" },
    },
    {
      name: "signing secret has an IV and a tag of the wrong length",
      reason: unreadableSecretReason,
      poison: { secretCiphertext: "v1.AA.AA.AAAA" },
    },
    {
      name: "previous secret, still valid, cannot be decrypted",
      reason: unreadableSecretReason,
      poison: { previousSecretCiphertext: encryptedWithAnotherAppSecret("whsec_old"), previousSecretExpiresAt: "tomorrow" as const },
    },
    {
      name: "custom headers cannot be decrypted",
      reason: unreadableHeadersReason,
      poison: { customHeadersCiphertext: encryptedWithAnotherAppSecret(JSON.stringify([{ name: "X-Api-Key", value: "k" }])) },
    },
  ];

  it.each(cases)("its $name: each chain's head waits with the reason, the healthy webhook gets everything", async ({ reason, poison }) => {
    poisoned = await side("Poisoned");
    const { previousSecretExpiresAt, ...columns } = poison as typeof poison & { previousSecretExpiresAt?: "tomorrow" };
    await test.ctx.db
      .update(webhooks)
      .set({ ...columns, ...(previousSecretExpiresAt ? { previousSecretExpiresAt: new Date(test.clock.now().getTime() + 24 * 3600_000) } : {}) })
      .where(eq(webhooks.id, poisoned.webhookId));
    await fanOutBoth();
    await deliverAll();

    await expectHealthyGotEverything();
    expect(sentTo(poisoned.path)).toEqual([]);
    // Each chain's head: tried once (a try our side could not make), waiting for its retry, the reason in the log; no attempt row.
    const messages = await messagesOf(poisoned.webhookId);
    const heads = poisoned.candidateIds.map((candidateId) => messages.find((message) => message.candidateId === candidateId)!);
    for (const head of heads) {
      expect(head).toMatchObject({ status: "pending", attemptCount: 1, failureReason: reason });
      expect((await getMessage(test.handle.sql, poisoned.companyId, head.id))!.failure_reason).toBe(reason);
      expect(await listAttempts(test.handle.sql, poisoned.companyId, { id: head.id, history_at: head.historyAt })).toEqual([]);
    }
    expect(messages.filter((message) => !heads.includes(message)).map((message) => [message.status, message.attemptCount, message.failureReason])).toEqual(
      messages.filter((message) => !heads.includes(message)).map(() => ["pending", 0, null]),
    );
    expect(await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, poisoned.webhookId))).toEqual([]);
    const queue = await test.ctx.db.select().from(webhookQueue).where(eq(webhookQueue.webhookId, poisoned.webhookId)).orderBy(asc(webhookQueue.position));
    expect(queue).toHaveLength(messages.length);
    for (const row of queue) {
      const head = heads.some((message) => message.id === row.messageId);
      expect([row.state, row.attemptCount, row.lastError]).toEqual(head ? ["ready", 1, reason] : ["held", 0, null]);
      if (head) expect(row.dueAt.getTime()).toBeGreaterThan(test.clock.now().getTime());
    }

    await tenMinutesPass({ due: false });
    const read = await gauges();
    expect(read).toMatchObject({ unsendable: heads.length, ready: heads.length, held: messages.length - heads.length, running: 0 });
    expect(read.oldestDue).toBeGreaterThanOrEqual(600);
    expect(read.oldestDue).toBeLessThan(900);
    await assertQueueInvariants(test.ctx.db);
  });
});

describe("an admin facing a signing secret saved under another APP_SECRET", () => {
  it("is told so on revealing it, and a replacement signs at once, the unreadable one not kept beside it", async () => {
    poisoned = await side("Unreadable");
    await test.ctx.db
      .update(webhooks)
      .set({ secretCiphertext: encryptedWithAnotherAppSecret("whsec_from_elsewhere") })
      .where(eq(webhooks.id, poisoned.webhookId));
    await expect(revealWebhookSecret(test.ctx, poisoned.companyId, poisoned.webhookId)).rejects.toMatchObject({
      code: "invalid_state",
      message: unreadableSecretToReveal,
    });
    await fanOutCompany(test.ctx, poisoned.companyId);
    await deliverDue(deps, { limit: 100 });
    expect(sentTo(poisoned.path)).toEqual([]);

    const { secret, previousValidUntil } = await rotateWebhookSecret(test.ctx, poisoned.companyId, poisoned.webhookId);
    expect(previousValidUntil).toBeNull();
    const [row] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, poisoned.webhookId));
    expect([row!.previousSecretCiphertext, row!.previousSecretExpiresAt]).toEqual([null, null]);
    expect(await revealWebhookSecret(test.ctx, poisoned.companyId, poisoned.webhookId)).toBe(secret);
    // The chains' heads, waiting for their retry a minute later, go when it falls due, with one signature: the new secret's.
    test.clock.advance(2 * 60_000);
    for (let round = 0; round < 10 && sentTo(poisoned.path).length < poisoned.candidateIds.length; round++) await deliverDue(deps, { limit: 100 });
    const requests = bed.receiver.received.filter((request) => request.path === poisoned.path);
    expect(requests.length).toBeGreaterThanOrEqual(poisoned.candidateIds.length);
    for (const request of requests) expect(String(request.headers["service-signature"]).split(" ")).toHaveLength(1);
  });
});

describe("a message our side cannot send", () => {
  it("whose candidate's stored text is missing, or a resend whose event is gone, ends as gone; the webhook's other chains go on", async () => {
    poisoned = await side("Poisoned");
    const [withoutText, withoutEvents] = poisoned.candidateIds as [string, string];
    await fanOutBoth();
    // One candidate's stored text lost before its messages go; the other's messages delivered, then resent once its
    // events are gone (as retention drops them: a queued message keeps its event, a resend made after has none).
    await test.ctx.db.update(candidates).set({ apiJson: null }).where(eq(candidates.id, withoutText));
    const third = (await submitCandidate(test.ctx, poisoned.interview, { email: "third@example.com" })).id;
    await fanOutCompany(test.ctx, poisoned.companyId);
    poisoned.candidateIds.push(third);
    await deliverAll();
    const delivered = (await messagesOf(poisoned.webhookId)).filter((message) => message.candidateId === withoutEvents);
    expect(delivered.map((message) => message.status)).toEqual(delivered.map(() => "succeeded"));
    await test.ctx.db.delete(events).where(eq(events.candidateId, withoutEvents));
    for (const message of delivered) await resendMessage(test.ctx, poisoned.companyId, message.id);
    while ((await deliverDue(deps, { limit: 100 })).size > 0);

    await expectHealthyGotEverything();
    const messages = await messagesOf(poisoned.webhookId);
    const of = (candidateId: string) => messages.filter((message) => message.candidateId === candidateId);
    const resent = of(withoutEvents).filter((message) => message.origin === "resend");
    expect(resent).toHaveLength(delivered.length);
    for (const gone of [of(withoutText), resent]) {
      expect(gone.map((message) => [message.status, message.failureReason])).toEqual(gone.map(() => ["failed", eventGoneReason]));
      expect((await getMessage(test.handle.sql, poisoned.companyId, gone[0]!.id))!.failure_reason).toBe(eventGoneReason);
    }
    // The third candidate's chain, of the same webhook, is delivered whole.
    expect(of(third).map((message) => message.status)).toEqual(of(third).map(() => "succeeded"));
    expect(sentTo(poisoned.path).sort()).toEqual([...delivered, ...of(third)].map((message) => message.eventId).sort());
    // Nothing is left waiting: "gone" ends a message, it is nothing to try again.
    expect(await test.ctx.db.select().from(webhookQueue).where(eq(webhookQueue.webhookId, poisoned.webhookId))).toEqual([]);
    const read = await gauges();
    expect(read).toMatchObject({ unsendable: 0, ready: 0, held: 0, running: 0, oldestDue: 0 });
    await assertQueueInvariants(test.ctx.db);
  });

  it("whose body cannot be put together (corrupt stored change) waits with the reason; messages before it go, those after it wait", async () => {
    poisoned = await side("Poisoned");
    const [corrupt, fine] = poisoned.candidateIds as [string, string];
    await changeStatus(test.ctx, corrupt, { to: "on_hold", by: { type: "team", name: "Ana" } });
    await changeStatus(test.ctx, corrupt, { to: "shortlisted", by: { type: "team", name: "Ana" } });
    const [changed] = await test.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.candidateId, corrupt), eq(events.type, "candidate.status_changed"), sql`${events.change} ->> 'to' = 'on_hold'`));
    // A change without its `by`: the body's renderer (server/read/events.ts renderEvent) cannot read it.
    await test.handle.sql`update events set change = change - 'by' where id = ${changed!.id} and created_at = ${changed!.createdAt}`;
    await fanOutBoth();
    await deliverAll();

    await expectHealthyGotEverything();
    const messages = await messagesOf(poisoned.webhookId);
    const chain = messages.filter((message) => message.candidateId === corrupt);
    const at = chain.findIndex((message) => message.eventId === changed!.id);
    expect(at).toBeGreaterThan(0);
    expect(chain.map((message) => [message.status, message.failureReason])).toEqual(
      chain.map((_, index) => (index < at ? ["succeeded", null] : index === at ? ["pending", unbuildableBodyReason] : ["pending", null])),
    );
    expect((await getMessage(test.handle.sql, poisoned.companyId, chain[at]!.id))!.failure_reason).toBe(unbuildableBodyReason);
    const [row] = await test.ctx.db.select().from(webhookQueue).where(eq(webhookQueue.messageId, chain[at]!.id));
    expect(row).toMatchObject({ state: "ready", attemptCount: 1, lastError: unbuildableBodyReason });
    // The same webhook's other chain, and this chain up to the corrupt message, were delivered.
    const other = messages.filter((message) => message.candidateId === fine);
    expect(other.map((message) => message.status)).toEqual(other.map(() => "succeeded"));
    expect(sentTo(poisoned.path).sort()).toEqual([...chain.slice(0, at), ...other].map((message) => message.eventId).sort());

    await tenMinutesPass({ due: false });
    const read = await gauges();
    expect(read).toMatchObject({ unsendable: 1, ready: 1, held: chain.length - at - 1, running: 0 });
    expect(read.oldestDue).toBeGreaterThanOrEqual(600);
    await assertQueueInvariants(test.ctx.db);
  });
});

describe("an address the SSRF guard refuses when it connects", () => {
  it("is a failed try (blocked_address) in the log, retried on the schedule; nothing connects; the healthy webhook gets everything", async () => {
    poisoned = await side("Poisoned", `https://${privateHost}/hook`);
    await fanOutBoth();
    await deliverAll();

    await expectHealthyGotEverything();
    const messages = await messagesOf(poisoned.webhookId);
    const heads = poisoned.candidateIds.map((candidateId) => messages.find((message) => message.candidateId === candidateId)!);
    for (const head of heads) {
      expect(head).toMatchObject({ status: "pending", attemptCount: 1, failureReason: null });
      const attempts = await listAttempts(test.handle.sql, poisoned.companyId, { id: head.id, history_at: head.historyAt });
      expect(attempts.map((attempt) => [attempt.succeeded, attempt.error_class, attempt.response_status])).toEqual([[false, "blocked_address", null]]);
      expect(attempts[0]!.error_message).toContain("10.1.2.3");
    }
    expect(connections.filter((target) => !target.startsWith("127.0.0.1:"))).toEqual([]);
    // A try was made: no reason of ours is kept in the queue, and it is not unsendable.
    const queue = await test.ctx.db
      .select()
      .from(webhookQueue)
      .where(
        inArray(
          webhookQueue.messageId,
          heads.map((head) => head.id),
        ),
      );
    expect(queue.map((row) => [row.state, row.attemptCount, row.lastError])).toEqual(heads.map(() => ["ready", 1, null]));

    const before = await gauges();
    expect(before).toMatchObject({ unsendable: 0, ready: heads.length, running: 0 });
    // Its retries fall due and it is not sent (no dispatcher runs): the oldest due message's age grows.
    await tenMinutesPass({ due: true });
    const read = await gauges();
    expect(read.unsendable).toBe(0);
    expect(read.oldestDue).toBeGreaterThanOrEqual(600);
    expect(read.oldestDue).toBeLessThan(900);
    await assertQueueInvariants(test.ctx.db);
  });
});
