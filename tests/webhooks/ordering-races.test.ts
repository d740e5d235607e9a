/**
 * The races the old engine (three narrow tables and a `held` column) had, each
 * forced with real transactions on separate connections: one transaction is
 * held open at the point that mattered (after it took the chain's lock, its
 * writes made, not committed), the competing operation is started on another
 * connection, and, where it must wait, the test waits until PostgreSQL shows it
 * waiting for the chain's advisory lock before the first one commits.
 *
 * The old races, found by reading:
 *  1. A retry row survives the hold: a resend of an older event waited for the
 *     head's row lock while the head's outcome was recorded with a retry; the
 *     resend then held the head back, but its snapshot did not see the retry
 *     row just written, so the head was later sent before the resend.
 *  2. A ready row survives the hold: the same, with the ready row written when
 *     the chain's next message was readied.
 *  3. Readying ranked from a stale snapshot while a resend committed: it
 *     released a message the resend had just put behind it.
 *
 * What makes them impossible now (server/webhooks/delivery/queue.ts): a resend
 * is a new message at the TAIL of its chain and never holds back a message
 * already queued or in flight, so there is no "hold" for a row to survive; and
 * every writer that decides which message of a chain may go (enqueue, and the
 * recording of an outcome that ends a message) takes the chain's advisory lock
 * in a statement of its own first, so its deciding statement's snapshot is
 * taken after the other writer committed.
 *
 * Every test ends by sending everything and comparing, per chain, what the
 * receiver got with the log's order (position = seq, resends last, each
 * message's tries together), with the queue's invariants checked between.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, type Database, type DatabaseHandle } from "@/db/client";
import { webhookAttempts, webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import type { LoadedInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type Attempted, attemptDelivery } from "@/server/webhooks/delivery/attempt";
import { claimDue } from "@/server/webhooks/delivery/claim";
import { deliverDue } from "@/server/webhooks/delivery/dispatcher";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { recordOutcomes } from "@/server/webhooks/delivery/record";
import { maxAttempts } from "@/server/webhooks/delivery/retry-schedule";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, submitCandidate } from "../support/fixtures";
import { assertQueueInvariants, queueViolations } from "../support/queue-invariants";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
/** A connection of its own, for the transaction a test holds open. */
let side: DatabaseHandle;
let companyId: string;
let interview: LoadedInterview;
let webhookCount = 0;

beforeAll(() => {
  side = createDatabase(test.url, { max: 1 });
});
afterAll(() => side.close());
beforeEach(async () => ({ companyId, interview } = await companyWithInterview(test.ctx)));

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The domain context with its writes inside `tx` (a domain operation's own transaction becomes a savepoint of it). */
const inside = (tx: Tx): DomainContext => ({ ...test.ctx, db: tx as unknown as Database });

/** `queue.ts`'s `chainLockSpace` and `webhookLockSpace`: the first keys of the chain and webhook locks (`pg_advisory_xact_lock(space, hash)`). */
const lockSpaces = { "chain lock": 1_946_713, "webhook lock": 1_946_714 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The transactions a test holds open, committed after it whatever happened (a failed test would otherwise block the next one's setup). */
const stillHeld = new Set<() => Promise<void>>();
afterEach(async () => {
  for (const commit of stillHeld) await commit();
  stillHeld.clear();
});

/**
 * Runs `work` in a transaction on the side connection and keeps the
 * transaction open (its locks held, its writes not committed) until `commit`.
 */
async function holdOpen<T>(work: (tx: Tx) => Promise<T>): Promise<{ value: T; commit: () => Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let worked!: (value: T) => void;
  const done = new Promise<T>((resolve) => (worked = resolve));
  const committed = side.db.transaction(async (tx) => {
    worked(await work(tx));
    await gate;
  });
  const value = await Promise.race([done, committed.then(() => Promise.reject(new Error("holdOpen: committed before it was held")))]);
  const commit = async () => {
    stillHeld.delete(commit);
    release();
    await committed;
  };
  stillHeld.add(commit);
  return { value, commit };
}

type LockWait = keyof typeof lockSpaces;

/** Sessions of this database waiting for a chain or a webhook lock (an advisory lock in its space): their pids and statements. */
const waiters = (kind: LockWait) =>
  test.handle.sql<Array<{ pid: number; query: string }>>`
    select a.pid, a.query from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where a.datname = current_database() and not l.granted and l.locktype = 'advisory' and l.classid = ${lockSpaces[kind]}::oid`;

/** Waits until a session waits for `kind`; throws, saying what every session is doing, when none does within `timeoutMs`. */
async function untilWaiting(kind: LockWait, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await waiters(kind);
    if (waiting.length > 0) return waiting;
    if (Date.now() >= deadline) {
      const sessions = await test.handle.sql`
        select pid, state, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity where datname = current_database()`;
      throw new Error(`No session waited for a ${kind} within ${timeoutMs} ms: ${JSON.stringify(sessions)}`);
    }
    await sleep(10);
  }
}

/** `promise`, which must settle within `ms` (an operation that must not wait for the transaction held open). */
async function withoutWaiting<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} waited for the transaction held open`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `second` on the main pool while `first` holds its transaction open:
 * when `waits`, `second` must be seen waiting for the chain's lock before
 * `first` commits; otherwise `second` must finish while `first` is still open.
 */
async function interleave<A, B>(first: (tx: Tx) => Promise<A>, second: () => Promise<B>, waits: boolean): Promise<[A, B]> {
  const held = await holdOpen(first);
  const running = second();
  // Awaited below; when the test fails first, its rejection must not be reported as unhandled after the test.
  running.catch(() => undefined);
  if (waits) {
    await untilWaiting("chain lock");
    await held.commit();
    return [held.value, await running];
  }
  const value = await withoutWaiting(running, "the second operation");
  await held.commit();
  return [held.value, value];
}

/** `interleave` with the recording as one of the two operations, either first: their results by name. */
async function recordingAnd<R, O>(
  first: "the recording" | "the other",
  record: (tx?: Tx) => Promise<R>,
  other: (tx?: Tx) => Promise<O>,
  waits: boolean,
): Promise<{ recorded: R; other: O }> {
  if (first === "the recording") {
    const [recorded, value] = await interleave(record, () => other(), waits);
    return { recorded, other: value };
  }
  const [value, recorded] = await interleave(other, () => record(), waits);
  return { recorded, other: value };
}

const by = { type: "team", name: "Ana" } as const;
const statuses = ["on_hold", "shortlisted"] as const;

/** A webhook of its own path for status changes (the only events a test then makes: one message each). */
async function statusWebhook() {
  const path = `/races-${++webhookCount}`;
  const { id } = await createWebhook(
    test.ctx,
    companyId,
    { url: bed.receiver.url(path), eventTypes: ["candidate.status_changed"] },
    allowReceiver(bed.receiver),
  );
  return { webhookId: id, path };
}

/** `count` status changes of the candidate (not fanned out yet). */
async function changeStatusTimes(candidateId: string, count: number) {
  for (let index = 0; index < count; index++) {
    const [row] = await test.handle.sql<Array<{ status: string }>>`select status from candidates where id = ${candidateId}`;
    await changeStatus(test.ctx, candidateId, { to: row!.status === statuses[0] ? statuses[1] : statuses[0], by });
  }
}

/** A chain of `length` messages to a new webhook: one submitted candidate's status changes, fanned out. */
async function chainOf(length: number) {
  const hook = await statusWebhook();
  const candidate = await submitCandidate(test.ctx, interview);
  await changeStatusTimes(candidate.id, length);
  await fanOutCompany(test.ctx, companyId);
  const messages = await chainMessages(hook.webhookId, candidate.id);
  expect(messages).toHaveLength(length);
  return { ...hook, candidateId: candidate.id, messages };
}

const chainMessages = (webhookId: string, candidateId: string) =>
  test.ctx.db
    .select()
    .from(webhookMessages)
    .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.candidateId, candidateId)))
    .orderBy(asc(webhookMessages.seq));

/** The chain's queue rows, lowest position first: [message id, state]. */
const queueOf = async (webhookId: string, candidateId: string) =>
  (
    await test.ctx.db
      .select({ id: webhookQueue.messageId, state: webhookQueue.state })
      .from(webhookQueue)
      .where(and(eq(webhookQueue.webhookId, webhookId), eq(webhookQueue.candidateId, candidateId)))
      .orderBy(asc(webhookQueue.position))
  ).map((row) => [row.id, row.state]);

/** Claims the webhook's one due message and tries it, the receiver answering `status`: what the recording is then given. */
async function claimAndTry(webhookId: string, status: number): Promise<Attempted> {
  bed.receiver.answer(() => ({ status, body: status === 200 ? "ok" : "down" }));
  const { messages } = await claimDue(test.ctx.db, test.clock.now(), { limit: 10 });
  const mine = messages.filter((message) => message.webhookId === webhookId);
  expect(mine).toHaveLength(messages.length);
  expect(mine).toHaveLength(1);
  const attempted = await attemptDelivery(bed.deps, mine[0]!);
  bed.receiver.answer(() => ({ status: 200, body: "ok" }));
  return attempted;
}

/** The event ids the receiver got on `path` for the candidate, in the order they came. */
const sentTo = (path: string, candidateId: string) =>
  bed.receiver.received
    .filter((request) => request.path === path && (JSON.parse(request.body) as { candidate: { id: string } }).candidate.id === candidateId)
    .map((request) => request.headers["service-event-id"] as string);

/** Sends whatever is left, on the test clock: each round an hour later (every retry here is a first or second one), until the webhooks have nothing queued. */
async function sendEverything(webhookIds: string[]) {
  bed.receiver.answer(() => ({ status: 200, body: "ok" }));
  for (let round = 0; round < 20; round++) {
    await pump(bed.deps);
    const [left] = await test.handle.sql<Array<{ count: number }>>`
      select count(*)::int as count from webhook_queue where webhook_id in ${test.handle.sql(webhookIds)}`;
    if (left!.count === 0) return;
    test.clock.advance(3600_000);
  }
  throw new Error("sendEverything: messages are still queued after 20 rounds");
}

/**
 * The order the engine promises, per chain: the messages in queued order
 * (position, the log's seq; a resend is queued last), each message's tries
 * one after another, and every message ended (nothing lost).
 */
async function expectQueuedOrder(webhookId: string, path: string, candidateId: string, ended: Record<string, "failed"> = {}) {
  const messages = await chainMessages(webhookId, candidateId);
  const attempts = messages.length
    ? await test.ctx.db
        .select({ messageId: webhookAttempts.messageId })
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.messageId,
            messages.map((message) => message.id),
          ),
        )
    : [];
  const tries = (id: string) => attempts.filter((attempt) => attempt.messageId === id).length;
  expect(messages.map((message) => [message.id, message.status])).toEqual(messages.map((message) => [message.id, ended[message.id] ?? "succeeded"]));
  expect(sentTo(path, candidateId)).toEqual(messages.flatMap((message) => Array(tries(message.id)).fill(message.eventId)));
  return messages;
}

describe("race 1: a resend while the head's outcome is recorded with a retry", () => {
  // The old engine held the head back behind the resend and missed the retry row the recording had just written. Now
  // the resend joins the tail (it only checks that its chain has a queued row) and a retry is the head's own row made
  // ready again in place: the recording decides nothing about the chain and takes no chain lock, the resend writes no
  // row the recording reads. So neither waits for the other, in either order, and neither can move the other's row.
  it.each(["the recording", "the resend"] as const)("%s first: neither waits, the resend is sent after the retried head and the rest", async (first) => {
    const { webhookId, path, candidateId, messages } = await chainOf(3);
    const [m1, m2, m3] = messages.map((message) => message.id) as [string, string, string];
    expect((await deliverDue(bed.deps, { limit: 10 })).get(m1)).toBe("succeeded");
    const attempted = await claimAndTry(webhookId, 503);

    const record = (db?: Tx) => recordOutcomes(bed.deps, [attempted], db);
    const resend = (db?: Tx) => resendMessage(db ? inside(db) : test.ctx, companyId, m1);
    const { recorded: outcomes, other: copy } = await recordingAnd(first === "the recording" ? first : "the other", record, resend, false);
    expect(outcomes.get(m2)).toBe("retry_scheduled");
    expect(await queueOf(webhookId, candidateId)).toEqual([
      [m2, "ready"],
      [m3, "held"],
      [copy.id, "held"],
    ]);
    await assertQueueInvariants(test.ctx.db);

    await sendEverything([webhookId]);
    const [e1, e2, e3] = messages.map((message) => message.eventId);
    expect(sentTo(path, candidateId)).toEqual([e1, e2, e2, e3, e1]);
    expect((await expectQueuedOrder(webhookId, path, candidateId)).at(-1)!.id).toBe(copy.id);
  });
});

describe("races 2 and 3: a resend while the head's outcome ends it and readies the chain's next message", () => {
  // The old engine wrote the next message's ready row from a snapshot that missed the resend (race 2), or ranked the
  // next message from a snapshot taken before the resend committed and released the message the resend had put behind
  // it (race 3). Now both writers take the chain's lock in a statement of their own before the statement that decides:
  // whichever comes second waits (seen here waiting for the lock) and then reads the chain as the first left it. The
  // recording readies the lowest held position, which a resend (at the tail) never is unless nothing else is queued;
  // a resend that comes second sees the head gone and the next one ready, and queues behind it. With the head the
  // chain's last message, the one that comes second is what keeps the resend from being stranded (held with no head).
  const outcomes = [
    ["succeeds", 200],
    ["fails its last try", 503],
  ] as const;
  const orders = ["the recording", "the resend"] as const;
  const cases = outcomes.flatMap(([outcome, status]) =>
    orders.flatMap((first) => [2, 3].map((length) => ({ outcome, status, first, length, label: `${outcome}, ${first} first, a chain of ${length}` }))),
  );

  it.each(cases)("the head $label", async ({ status, first, length }) => {
    const { webhookId, path, candidateId, messages } = await chainOf(length);
    const ids = messages.map((message) => message.id);
    const [m1, m2] = ids as [string, string];
    expect((await deliverDue(bed.deps, { limit: 10 })).get(m1)).toBe("succeeded");
    // A failure that ends the message: its last try.
    if (status !== 200)
      await test.ctx.db
        .update(webhookQueue)
        .set({ attemptCount: maxAttempts - 1 })
        .where(eq(webhookQueue.messageId, m2));
    const attempted = await claimAndTry(webhookId, status);

    const record = (db?: Tx) => recordOutcomes(bed.deps, [attempted], db);
    const resend = (db?: Tx) => resendMessage(db ? inside(db) : test.ctx, companyId, m1);
    const { recorded, other: copy } = await recordingAnd(first === "the recording" ? first : "the other", record, resend, true);
    expect(recorded.get(m2)).toBe(status === 200 ? "succeeded" : "failed");
    // The chain's next message heads it; the resend waits at the tail, or heads it when nothing else was left.
    expect(await queueOf(webhookId, candidateId)).toEqual(
      length === 3
        ? [
            [ids[2], "ready"],
            [copy.id, "held"],
          ]
        : [[copy.id, "ready"]],
    );
    await assertQueueInvariants(test.ctx.db);

    await sendEverything([webhookId]);
    const sent = messages.map((message) => message.eventId);
    expect(sentTo(path, candidateId)).toEqual([...sent, sent[0]]);
    const logged = await expectQueuedOrder(webhookId, path, candidateId, status === 200 ? {} : { [m2]: "failed" });
    expect(logged.at(-1)!.id).toBe(copy.id);
  });
});

describe("fan-out of a new message for the chain while the head ends", () => {
  // The same two writers as above, with the new message an event's rather than a resend's. Without the lock, a fan-out
  // that read the chain before the ending head's deletion committed would queue its message held behind a head that is
  // gone (stranded), and a recording that read the chain before the fan-out committed would ready nothing (stranded
  // again); one that saw the chain empty while another message was queued would let the new one go ahead of it. With
  // the lock, the second waits and reads what the first committed: the new message is the chain's head once everything
  // before it has ended, never sooner, never later.
  const cases = (["the fan-out", "the recording"] as const).flatMap((first) =>
    [1, 2].map((length) => ({ first, length, label: `${first} first, ${length === 1 ? "the head the chain's last" : "a message held behind the head"}` })),
  );

  it.each(cases)("$label", async ({ first, length }) => {
    const { webhookId, path, candidateId, messages } = await chainOf(length);
    const ids = messages.map((message) => message.id);
    const attempted = await claimAndTry(webhookId, 200);
    await changeStatusTimes(candidateId, 1);

    const record = (db?: Tx) => recordOutcomes(bed.deps, [attempted], db);
    const fanOut = (db?: Tx) => fanOutCompany(db ? inside(db) : test.ctx, companyId);
    const { recorded, other: fannedOut } = await recordingAnd(first === "the recording" ? first : "the other", record, fanOut, true);
    expect(recorded.get(ids[0]!)).toBe("succeeded");
    expect(fannedOut.created).toBe(1);
    const all = await chainMessages(webhookId, candidateId);
    const added = all.at(-1)!.id;
    expect(all.map((message) => message.id)).toEqual([...ids, added]);
    expect(await queueOf(webhookId, candidateId)).toEqual(
      length === 1
        ? [[added, "ready"]]
        : [
            [ids[1], "ready"],
            [added, "held"],
          ],
    );
    await assertQueueInvariants(test.ctx.db);

    await sendEverything([webhookId]);
    expect(sentTo(path, candidateId)).toEqual(all.map((message) => message.eventId));
    await expectQueuedOrder(webhookId, path, candidateId);
  });
});

/** mulberry32: a small seeded generator, so a round can be run again from its printed seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("randomized: concurrent resends, recordings and fan-outs", () => {
  const rounds = Number(process.env.ROUNDS ?? 30);
  const baseSeed = process.env.SEED ? Number(process.env.SEED) : Math.floor(Math.random() * 2 ** 31);

  it(`keeps every chain in queued order, resends at the tail, over ${rounds} rounds (SEED=${process.env.SEED ?? "random"})`, { timeout: 240_000 }, async () => {
    console.info(`ordering-races randomized: SEED=${baseSeed} ROUNDS=${rounds} (round r uses seed SEED+r; SEED=<n> ROUNDS=1 repeats one)`);
    const candidates = await Promise.all([0, 1, 2].map((index) => submitCandidate(test.ctx, interview, { email: `chain-${index}@example.com` })));
    // Two webhooks for every round (each round's order is checked over every round's history), the second on in some.
    const bothHooks = [await statusWebhook(), await statusWebhook()];
    let roundsThatMet = 0;
    for (let round = 0; round < rounds; round++) {
      const seed = baseSeed + round;
      const next = random(seed);
      const pick = <T>(from: readonly T[]) => from[Math.floor(next() * from.length)]!;
      const jitter = () => sleep(Math.floor(next() * 15));
      try {
        const hooks = bothHooks.slice(0, next() < 0.5 ? 1 : 2);
        // Nothing of the second is queued between rounds: turned off or on by its column alone.
        await test.ctx.db
          .update(webhooks)
          .set({ enabled: hooks.length === 2 })
          .where(eq(webhooks.id, bothHooks[1]!.webhookId));
        const chains = candidates.slice(0, 1 + Math.floor(next() * 3));
        // Sent and ended already: what resends copy.
        for (const candidate of chains) await changeStatusTimes(candidate.id, 1);
        await fanOutCompany(test.ctx, companyId);
        await pump(bed.deps);
        // Queued: each chain's head is claimed and tried (some fail), the rest held.
        for (const candidate of chains) await changeStatusTimes(candidate.id, 1 + Math.floor(next() * 3));
        await fanOutCompany(test.ctx, companyId);
        const { messages: claimed } = await claimDue(test.ctx.db, test.clock.now(), { limit: 100 });
        // Decided here, not as requests come (their order is not the seed's): which heads' tries fail.
        const pathOf = new Map(hooks.map((hook) => [hook.webhookId, hook.path]));
        const failing = new Set(claimed.filter(() => next() < 0.5).map((message) => `${pathOf.get(message.webhookId)} ${message.eventId}`));
        bed.receiver.answer((request) => ({ status: failing.has(`${request.path} ${request.headers["service-event-id"]}`) ? 503 : 200 }));
        const tried = await Promise.all(claimed.map((message) => attemptDelivery(bed.deps, message)));
        bed.receiver.answer(() => ({ status: 200, body: "ok" }));
        // More history, fanned out while the rest goes on.
        for (const candidate of chains) if (next() < 0.7) await changeStatusTimes(candidate.id, 1 + Math.floor(next() * 2));
        const hookIds = hooks.map((hook) => hook.webhookId);
        const logged = await test.ctx.db.select().from(webhookMessages).where(inArray(webhookMessages.webhookId, hookIds));

        const work: Array<() => Promise<unknown>> = [];
        for (const attempted of tried) work.push(() => recordOutcomes(bed.deps, [attempted]));
        if (tried.length > 1 && next() < 0.5) work.push(() => recordOutcomes(bed.deps, tried.slice(0, 1)));
        for (let index = Math.floor(next() * 4); index > 0; index--) {
          const source = pick(logged);
          work.push(() => resendMessage(test.ctx, companyId, source.id));
        }
        for (let index = 1 + Math.floor(next() * 2); index > 0; index--) work.push(() => fanOutCompany(test.ctx, companyId));
        // Alongside, a look every few milliseconds for a writer waiting for a chain lock: how often the round really met.
        const watch = { on: true, seen: false };
        const watching = (async () => {
          while (watch.on) {
            if ((await waiters("chain lock")).length > 0) watch.seen = true;
            await sleep(2);
          }
        })();
        await Promise.all(
          work.map(async (run) => {
            await jitter();
            return run();
          }),
        ).finally(() => (watch.on = false));
        await watching;
        if (watch.seen) roundsThatMet++;
        expect(await queueViolations(test.ctx.db)).toEqual({
          waitingWithoutRow: [],
          rowWithoutWaiting: [],
          chainsWithoutOneHead: [],
          headsBehindEarlier: [],
          copiesUnlikeTheLog: [],
        });

        await sendEverything(hookIds);
        for (const hook of hooks) for (const candidate of chains) await expectQueuedOrder(hook.webhookId, hook.path, candidate.id);
        await assertQueueInvariants(test.ctx.db);
      } catch (error) {
        throw new Error(`round ${round} failed: repeat it with SEED=${seed} ROUNDS=1`, { cause: error });
      }
    }
    console.info(`ordering-races randomized: a writer was seen waiting for a chain lock in ${roundsThatMet} of ${rounds} rounds`);
  });
});

describe("turning the webhook off while a resend commits", () => {
  // Not one of the three, but the same shape: a writer that decides what is queued for a webhook (turning it off ends
  // its queue) beside one that queues for it. Queueing holds the webhook's lock shared, and turning it off takes it
  // exclusively before it ends the queue (queue.ts endWebhookQueue), so whichever comes second waits for the lock (seen
  // here waiting), then sees what the first committed: no message is left queued to a webhook that is off, and none is
  // queued after.
  it.each(["the resend", "turning off"] as const)("%s first: nothing stays queued for the webhook that is off", async (first) => {
    const { webhookId, path, candidateId, messages } = await chainOf(1);
    const [m1] = messages.map((message) => message.id) as [string];
    expect((await deliverDue(bed.deps, { limit: 10 })).get(m1)).toBe("succeeded");
    const resend = (db?: Tx) => resendMessage(db ? inside(db) : test.ctx, companyId, m1);
    const off = (db?: Tx) => setWebhookEnabled(db ? inside(db) : test.ctx, companyId, webhookId, false);
    const held = first === "the resend" ? await holdOpen(resend) : await holdOpen(off);
    const second = first === "the resend" ? off() : resend();
    second.catch(() => undefined); // awaited below; see `interleave`
    await untilWaiting("webhook lock");
    await held.commit();
    const [turnedOff, copy] = first === "the resend" ? [await second, held.value] : [held.value, await second.catch((error: Error) => error)];
    const logged = await chainMessages(webhookId, candidateId);
    if (first === "the resend") {
      // Its copy was queued before: turning off ended it with the rest.
      expect((turnedOff as { markedFailed: number }).markedFailed).toBe(1);
      expect(logged.map((message) => [message.id, message.status])).toEqual([
        [m1, "succeeded"],
        [(copy as { id: string }).id, "failed"],
      ]);
    } else {
      // It read the webhook as off once the lock was free: nothing queued, nothing logged, and the admin is told why.
      expect(copy).toMatchObject({ message: "Turn the webhook on before resending." });
      expect(logged.map((message) => message.id)).toEqual([m1]);
    }
    expect(await queueOf(webhookId, candidateId)).toEqual([]);
    await assertQueueInvariants(test.ctx.db);
    await pump(bed.deps);
    expect(sentTo(path, candidateId)).toEqual([messages[0]!.eventId]);
  });
});
