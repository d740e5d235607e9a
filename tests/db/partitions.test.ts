/**
 * The history and the delivery log are partitioned by day (db/partitions.ts):
 * what partitioning cannot enforce across partitions is still enforced, no
 * insert ever finds no partition, and retention drops whole days (never one
 * with a waiting message).
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { daysAhead, ensureHistoryPartitions, existingDays, historyRetentionDays, utcDay } from "@/db/partitions";
import { events, webhookAttempts, webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import { backfill } from "@/server/webhooks/admin/backfill";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { eventMessage } from "@/server/webhooks/delivery/messages";
import { enqueueMessages } from "@/server/webhooks/delivery/queue";
import { deleteExpiredHistory } from "@/worker/tasks/history-partitions";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, startCandidate, submitCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
const dayMs = 24 * 3600_000;
let companyId: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;

beforeEach(async () => {
  companyId = await makeCompany(test.ctx, "Acme");
  interview = await makeInterview(test.ctx, companyId);
});

/** The partition a row is stored in. */
async function partitionOf(table: "events" | "webhook_messages" | "webhook_attempts", id: string) {
  const [row] = await test.handle.sql`select tableoid::regclass::text as partition from ${test.handle.sql(table)} where id = ${id}`;
  return row?.partition as string | undefined;
}

/** The unique key a write broke (drizzle wraps the driver's error as its `cause`). */
async function brokenKey(write: Promise<unknown>) {
  try {
    await write;
  } catch (error) {
    const failure = error as { cause?: { code?: string; constraint_name?: string }; code?: string; constraint_name?: string };
    const cause = failure.cause ?? failure;
    return cause.code === "23505" ? cause.constraint_name : `not a unique violation: ${String(error)}`;
  }
  return "nothing: the write went through";
}

const rawEvent = (candidateId: string, type: string, createdAt: Date, id = test.ctx.newId("event")) =>
  test.ctx.db.insert(events).values({ id, companyId, candidateId, interviewId: interview.id, type: type as never, createdAt });

describe("partitions", () => {
  it("exist for every day of the kept 30 days and the 7 days ahead in every table, beside a DEFAULT partition", async () => {
    await ensureHistoryPartitions(test.ctx.db, new Date());
    const days = await existingDays(test.ctx.db);
    const ahead = Array.from({ length: historyRetentionDays + daysAhead + 1 }, (_, index) =>
      utcDay(new Date(Date.now() + (index - historyRetentionDays) * dayMs)),
    );
    for (const table of ["events", "webhook_messages", "webhook_attempts"] as const) {
      expect([...days.get(table)!]).toEqual(expect.arrayContaining(ahead));
      const [partitioned] = await test.handle.sql`
        select pg_get_partkeydef(${table}::regclass) as key, (select count(*)::int from pg_inherits h join pg_class c on c.oid = h.inhrelid
          where h.inhparent = ${table}::regclass and c.relname = ${`${table}_default`}) as defaults`;
      expect(partitioned).toEqual({ key: `RANGE (${table === "events" ? "created_at" : "history_at"})`, defaults: 1 });
    }
    // A day's indexes are named after the parent's.
    const suffix = ahead[1]!.replaceAll("-", "");
    const indexes = await test.handle.sql`select indexrelid::regclass::text as name from pg_index where indrelid = ${`events_${suffix}`}::regclass order by 1`;
    expect(indexes.map((row) => row.name)).toEqual(
      ["events_created_idx", "events_feed_idx", "events_id_created_at_pk", "events_interview_feed_idx"].map((name) => `${name}_${suffix}`),
    );
  });

  it("take a row of a day not made yet in the DEFAULT partition, and move it to its day when the day is made", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    const farOff = new Date("2031-05-05T10:00:00.000Z");
    await rawEvent(candidate.id, "candidate.submitted", farOff, "evt_far_off");
    expect(await partitionOf("events", "evt_far_off")).toBe("events_default");

    const { made } = await ensureHistoryPartitions(test.ctx.db, new Date());
    expect(made).toContain("events_20310505");
    expect(await partitionOf("events", "evt_far_off")).toBe("events_20310505");
    const [left] = await test.handle.sql`select count(*)::int as count from events_default where created_at >= '2031-05-05' and created_at < '2031-05-06'`;
    expect(left!.count).toBe(0);
    // The moved event keeps its once-per-attempt slot: a second one is still refused.
    expect(await brokenKey(rawEvent(candidate.id, "candidate.submitted", new Date()))).toBe("events_once_per_attempt_key");
  });

  it("of the log index no column that recording an outcome changes, so the recording updates a message in place", async () => {
    const indexes = await test.handle.sql<Array<{ name: string; definition: string }>>`
      select c.relname as name, pg_get_indexdef(c.oid) as definition from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'webhook_messages'::regclass`;
    expect(indexes.length).toBeGreaterThan(0);
    // A HOT update (no new index entries) needs every indexed column, in an index's keys or its condition, unchanged.
    for (const { name, definition } of indexes)
      for (const column of ["status", "attempt_count", "next_attempt_at", "completed_at", "failure_reason"])
        expect(definition, name).not.toMatch(new RegExp(`\\b${column}\\b`));
  });

  it("made ahead keep their table's newest day's storage parameters", async () => {
    const optionsOf = async (table: string) =>
      (
        await test.handle.sql<Array<{ name: string; options: string[] | null }>>`
          select c.relname as name, c.reloptions as options from pg_inherits h join pg_class c on c.oid = h.inhrelid
          where h.inhparent = ${table}::regclass order by c.relname`
      ).map(({ name, options }) => [name, options] as const);
    // An operator's setting on the days there are.
    const before = await optionsOf("events");
    for (const [name] of before) await test.handle.sql`alter table ${test.handle.sql(name)} set (autovacuum_vacuum_scale_factor = 0.02, fillfactor = 90)`;
    const { made } = await ensureHistoryPartitions(test.ctx.db, new Date(Date.now() + 3 * dayMs));
    const madeEvents = made.filter((name) => name.startsWith("events_"));
    expect(madeEvents).toHaveLength(3);
    const after = new Map(await optionsOf("events"));
    for (const name of madeEvents) expect(after.get(name)).toEqual(["autovacuum_vacuum_scale_factor=0.02", "fillfactor=90"]);
    // The log's messages leave room for updates in place; a table whose days have none keeps PostgreSQL's defaults.
    const messages = new Map(await optionsOf("webhook_messages"));
    for (const name of made.filter((made) => made.startsWith("webhook_messages_"))) expect(messages.get(name)).toEqual(["fillfactor=90"]);
    const attempts = new Map(await optionsOf("webhook_attempts"));
    for (const name of made.filter((made) => made.startsWith("webhook_attempts_"))) expect(attempts.get(name)).toBeNull();
  });
});

describe("at most one submitted, scored and ready per attempt", () => {
  it("holds across days (partitions), not only within one", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    await rawEvent(candidate.id, "candidate.scored", new Date(Date.now() - 20 * dayMs));
    expect(await brokenKey(rawEvent(candidate.id, "candidate.scored", new Date()))).toBe("events_once_per_attempt_key");
    await rawEvent(candidate.id, "candidate.ready", new Date());
    await rawEvent(candidate.id, "candidate.status_changed", new Date());
    await rawEvent(candidate.id, "candidate.status_changed", new Date(Date.now() - 20 * dayMs));
    const types = await test.ctx.db.select({ type: events.type }).from(events).where(eq(events.candidateId, candidate.id));
    expect(types.map((row) => row.type).sort()).toEqual(["candidate.ready", "candidate.scored", "candidate.status_changed", "candidate.status_changed"]);
  });

  it("holds within one statement of many rows, as a bulk import writes them, across days too", async () => {
    const [one, other] = [await startCandidate(test.ctx, interview.id), await startCandidate(test.ctx, interview.id)];
    const row = (candidateId: string, type: string, createdAt: Date) => ({
      id: test.ctx.newId("event"),
      companyId,
      candidateId,
      interviewId: interview.id,
      type: type as never,
      createdAt,
    });
    const twice = test.ctx.db
      .insert(events)
      .values([
        row(other.id, "candidate.ready", new Date()),
        row(one.id, "candidate.ready", new Date()),
        row(one.id, "candidate.ready", new Date(Date.now() - 2 * dayMs)),
      ]);
    expect(await brokenKey(twice)).toBe("events_once_per_attempt_key");
    // The failed statement wrote nothing, slots included: each candidate's first ready goes in.
    await test.ctx.db
      .insert(events)
      .values([row(one.id, "candidate.ready", new Date()), row(other.id, "candidate.ready", new Date()), row(one.id, "candidate.status_changed", new Date())]);
    const [slots] = await test.handle.sql`select count(*)::int as count from events_once_per_attempt where candidate_id in (${one.id}, ${other.id})`;
    expect(slots!.count).toBe(2);
  });

  it("holds for two transactions writing at once: the second waits for the first and fails when it commits", async () => {
    const candidate = await startCandidate(test.ctx, interview.id);
    let firstWrote = () => {};
    const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = test.ctx.db.transaction(async (tx) => {
      await tx.insert(events).values({
        id: "evt_first",
        companyId,
        candidateId: candidate.id,
        interviewId: interview.id,
        type: "candidate.submitted",
        createdAt: new Date(Date.now() - 3 * dayMs),
      });
      firstWrote();
      await released;
    });
    await wrote;
    const second = rawEvent(candidate.id, "candidate.submitted", new Date(), "evt_second");
    // The second insert waits on the first transaction's slot.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await first;
    expect(await brokenKey(second)).toBe("events_once_per_attempt_key");
    expect((await test.ctx.db.select({ id: events.id }).from(events).where(eq(events.candidateId, candidate.id))).map((row) => row.id)).toEqual(["evt_first"]);
  });
});

describe("one message per webhook and event", () => {
  it("is kept whatever adds it again: fan-out, sending past events, or the same message twice; resends are their own", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    await submitCandidate(test.ctx, interview);
    await pump(bed.deps);
    const messages = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(messages).toHaveLength(3);
    const history = await test.ctx.db.select().from(events).where(eq(events.companyId, companyId));
    // Every message of an event lives in its event's time (the partition key).
    for (const message of messages)
      expect(message.historyAt.toISOString()).toBe(history.find((event) => event.id === message.eventId)!.createdAt.toISOString());

    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    const again = history.map((event) => eventMessage(test.ctx.newId, webhook!, event));
    expect(await test.ctx.db.transaction((tx) => enqueueMessages(tx, again, test.clock.now()))).toMatchObject({ ids: [], allowed: true });
    expect(await backfill(test.ctx, companyId, webhookId, new Date(test.clock.now().getTime() - dayMs))).toEqual({ sent: 0, more: false });
    expect(await fanOutCompany(test.ctx, companyId)).toEqual({ created: 0 });
    const first = messages[0]!;
    // PostgreSQL names the day's index that holds the key.
    expect(await brokenKey(test.ctx.db.insert(webhookMessages).values({ ...first, id: "msg_twice", status: "pending", seq: undefined }))).toMatch(
      /^webhook_messages_event_key_\d{8}$/,
    );

    test.clock.advance(3 * dayMs);
    const resend = await resendMessage(test.ctx, companyId, first.id);
    const [copy] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, resend.id));
    expect(copy).toMatchObject({ origin: "resend", eventId: first.eventId, historyAt: test.clock.now() });
    test.clock.advance(-3 * dayMs);
  });

  it("attempts are stored in their message's day", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    await submitCandidate(test.ctx, interview, { email: "days@example.com" });
    await pump(bed.deps);
    const attempts = await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, webhookId));
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) {
      const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, attempt.messageId));
      expect(attempt.historyAt).toEqual(message!.historyAt);
      const suffix = utcDay(message!.historyAt).replaceAll("-", "");
      expect(await partitionOf("webhook_messages", message!.id)).toBe(`webhook_messages_${suffix}`);
      expect(await partitionOf("webhook_attempts", attempt.id)).toBe(`webhook_attempts_${suffix}`);
    }
  });
});

describe("retention", () => {
  /**
   * A day of history `daysAgo` days before the test clock: an event, its
   * message and one attempt: sent, or refused and waiting for its retry,
   * queued as every message is (queue.ts: its log row and its queue row).
   */
  async function dayOfHistory(daysAgo: number, status: "succeeded" | "pending") {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const candidate = await startCandidate(test.ctx, interview.id, { email: `d${daysAgo}@example.com` });
    const at = new Date(test.clock.now().getTime() - daysAgo * dayMs);
    const eventId = test.ctx.newId("event");
    await rawEvent(candidate.id, "candidate.status_changed", at, eventId);
    const messageId = test.ctx.newId("message");
    const message = {
      id: messageId,
      companyId,
      webhookId,
      origin: "event" as const,
      eventId,
      eventType: "candidate.status_changed" as const,
      candidateId: candidate.id,
      historyAt: at,
      event: { createdAt: at, change: null },
    };
    if (status === "pending") {
      const queued = await test.ctx.db.transaction((tx) => enqueueMessages(tx, [message], test.clock.now()));
      expect(queued).toMatchObject({ ids: [messageId], allowed: true });
      // Its first try was refused; its retry is due now.
      await test.ctx.db.update(webhookMessages).set({ attemptCount: 1 }).where(eq(webhookMessages.id, messageId));
      await test.ctx.db.update(webhookQueue).set({ attemptCount: 1 }).where(eq(webhookQueue.messageId, messageId));
    } else {
      await test.ctx.db.insert(webhookMessages).values({ ...message, status, nextAttemptAt: at, createdAt: at, completedAt: at, attemptCount: 1 });
    }
    await test.ctx.db.insert(webhookAttempts).values({
      id: test.ctx.newId("attempt"),
      messageId,
      webhookId,
      attempt: 1,
      url: bed.receiver.url(),
      startedAt: at,
      durationMs: 5,
      requestHeaders: {},
      succeeded: status === "succeeded",
      historyAt: at,
    });
    return { day: utcDay(at), eventId, messageId, webhookId };
  }

  const exists = async (name: string) => (await test.handle.sql`select to_regclass(${name}) is not null as found`)[0]!.found as boolean;

  it("drops whole days past the 30 days, all three tables of the day; a day with a waiting message stays until it is sent", async () => {
    const expired = await dayOfHistory(40, "succeeded");
    const waiting = await dayOfHistory(35, "pending");
    const kept = await dayOfHistory(20, "succeeded");
    const removed = await deleteExpiredHistory(bed.deps);
    expect(removed.daysDropped).toContain(expired.day);
    expect(removed.daysDropped).not.toContain(waiting.day);
    expect(removed.daysKept).toEqual([waiting.day]);
    for (const table of ["events", "webhook_messages", "webhook_attempts"]) {
      expect(await exists(`${table}_${expired.day.replaceAll("-", "")}`)).toBe(false);
      expect(await exists(`${table}_${waiting.day.replaceAll("-", "")}`)).toBe(true);
      expect(await exists(`${table}_${kept.day.replaceAll("-", "")}`)).toBe(true);
    }
    expect(await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, expired.webhookId))).toEqual([]);
    expect(await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, expired.webhookId))).toEqual([]);
    expect(await test.ctx.db.select().from(events).where(eq(events.id, expired.eventId))).toEqual([]);
    expect(await test.ctx.db.select().from(events).where(eq(events.id, kept.eventId))).toHaveLength(1);

    // The waiting message is queued in its day: sent, its row leaves the queue, and its day goes at the next run.
    expect(await test.ctx.db.select({ state: webhookQueue.state }).from(webhookQueue).where(eq(webhookQueue.messageId, waiting.messageId))).toEqual([
      { state: "ready" },
    ]);
    expect(await pump(bed.deps)).toEqual([`${waiting.messageId}:succeeded`]);
    expect(await test.ctx.db.select().from(webhookQueue).where(eq(webhookQueue.messageId, waiting.messageId))).toEqual([]);
    expect(bed.receiver.received.map((request) => request.headers["service-event-id"])).toEqual([waiting.eventId]);
    const later = await deleteExpiredHistory(bed.deps);
    expect(later).toEqual({ daysDropped: [waiting.day], daysKept: [] });
    expect(await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, waiting.webhookId))).toEqual([]);
    expect(await test.ctx.db.select().from(events).where(eq(events.id, kept.eventId))).toHaveLength(1);
  });
});
