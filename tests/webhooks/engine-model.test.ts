/**
 * A model-based test of the delivery engine (docs/webhook-engine.md): random
 * short sequences of operations run against the real database, the real
 * engine functions and the real loopback HTTPS receiver, and side by side
 * against a small in-memory model of the spec's rules:
 *
 * - per (webhook, candidate) chain, messages are delivered in the order they
 *   were queued, and only the chain's first queued message may be in flight;
 * - a retry keeps its place at the head; a message that fails for good lets
 *   the next one go;
 * - a resend or a past event (backfill) joins the chain's tail;
 * - turning a webhook off ends all its queued messages (the log says failed);
 * - a sample has no chain;
 * - a claim takes the due heads oldest due first, within the limit and each
 *   webhook's rate limit; a lease that ran out is claimed again in place; an
 *   outcome recorded under a lease no longer held changes nothing ("gone").
 *
 * After every step the queue rows (state, due time, lease, tries), the log's
 * statuses, and every request the receiver saw (webhook, event id, try
 * number, in order) agree with the model, the queue's invariants hold
 * (queue-invariants.ts), and the deliveries the engine accepted are, per
 * chain, in queue order.
 *
 * `npm test` runs 200 sequences; MODEL_RUNS=5000 runs more, SEED=… repeats a
 * run (fast-check prints the seed and the path of a failure; MODEL_PATH=…
 * replays that path).
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type CandidateStatus, webhookQueue, webhooks } from "@/db/schema";
import { changeStatus, decidedStatuses } from "@/server/domain/statuses";
import { backfill } from "@/server/webhooks/admin/backfill";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type Attempted, attemptDelivery } from "@/server/webhooks/delivery/attempt";
import { type ClaimedMessage, claimDue, leaseMs } from "@/server/webhooks/delivery/claim";
import { answerDeadlineMs } from "@/server/webhooks/delivery/delivery-client";
import { alertAfterMs } from "@/server/webhooks/delivery/failure-thresholds";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { type DeliveryOutcome, recordOutcomes } from "@/server/webhooks/delivery/record";
import { maxAttempts, retryDelayAfter } from "@/server/webhooks/delivery/retry-schedule";
import { webhookOffReason } from "@/server/webhooks/delivery/unsent-reasons";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { clearJobs } from "../support/jobs";
import { assertQueueInvariants } from "../support/queue-invariants";
import { allowReceiver, useWebhookTestbed } from "../support/webhook-fixtures";

const runs = Number(process.env.MODEL_RUNS ?? 200);
const seed = process.env.SEED ? Number(process.env.SEED) : Math.floor(Math.random() * 2 ** 31);
const path = process.env.MODEL_PATH;
/** Commands per sequence at most: short sequences, many of them. */
const maxCommands = 12;
const candidateCount = 3;
const rates = [null, 1, 2, 5, 10] as const;
type Rate = (typeof rates)[number];

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interviewId: string;
/** The candidates whose status changes make the events, and each one's status now. */
const candidates: Array<{ id: string; status: CandidateStatus }> = [];

// ---------------------------------------------------------------------------
// The model

type Origin = "event" | "resend" | "sample";
type LogStatus = "pending" | "succeeded" | "failed";
type State = "held" | "ready" | "running";

type ModelWebhook = {
  id: string;
  enabled: boolean;
  rate: Rate /** The pace row's `sent_until` (ms); null: no pace row. */;
  pace: number | null;
  failingSince: number | null;
};
type ModelEvent = { id: string; candidateId: string; createdAt: number };
type ModelMessage = {
  id: string;
  webhook: number;
  candidateId: string | null;
  eventId: string;
  origin: Origin;
  position: bigint;
  status: LogStatus;
  failureReason: string | null;
  /** The log's attempt_count. */
  logAttempts: number;
  /** The queue row, while pending. */
  state: State;
  dueAt: number;
  leasedAt: number | null;
  attempts: number;
};
/** A claimed message a worker holds (not yet tried), or one tried whose outcome is not recorded yet. */
type ModelClaim = { messageId: string; leasedAt: number; attemptCount: number };
type ModelAttempted = ModelClaim & { kind: "sent" | "lease_lost"; succeeded: boolean };
/** A request the receiver got: which webhook (its path), event, try number, and whether it said `test`. */
type Send = { path: string; eventId: string; attempt: string; test: boolean; candidateId: string | null; status: number };

type Model = {
  webhooks: ModelWebhook[];
  messages: ModelMessage[];
  events: ModelEvent[];
  /** Events not fanned out yet. */
  unfanned: ModelEvent[];
  claims: ModelClaim[];
  attempted: ModelAttempted[];
  sends: Send[];
  seqStart: number;
};

/** What the workers hold, parallel to the model's `claims` and `attempted`. */
type Real = {
  claims: ClaimedMessage[];
  attempted: Attempted[];
  /** Per chain, the position of the last delivery the engine accepted (succeeded). */
  accepted: Map<string, bigint>;
};

const now = () => test.clock.now().getTime();
const chainOf = (message: { webhook: number; candidateId: string | null }) => (message.candidateId ? `${message.webhook}/${message.candidateId}` : null);
const pathOf = (webhook: number) => `/model/w${webhook}`;
const pending = (model: Model) => model.messages.filter((message) => message.status === "pending");
const messageById = (model: Model, id: string) => model.messages.find((message) => message.id === id);

/** Queues new messages (in position order) as enqueueMessages does: ready when their chain has nothing queued, else held. */
function modelEnqueue(model: Model, added: ModelMessage[]) {
  for (const message of added) {
    const chain = chainOf(message);
    const queuedAhead = chain !== null && pending(model).some((other) => chainOf(other) === chain);
    message.state = queuedAhead ? "held" : "ready";
    model.messages.push(message);
  }
}

/** A queued message ends: the log's status, its row goes, its chain's next held message becomes ready (its due time as it was). */
function modelEnd(model: Model, message: ModelMessage, status: "succeeded" | "failed", failureReason: string | null) {
  message.status = status;
  message.failureReason = failureReason;
  message.leasedAt = null;
  const chain = chainOf(message);
  if (chain === null) return;
  const next = pending(model)
    .filter((other) => chainOf(other) === chain && other.state === "held")
    .sort((a, b) => (a.position < b.position ? -1 : 1))[0];
  if (next) next.state = "ready";
}

/** What a claim with `limit` takes now (claim.ts): per webhook within its rate, then the oldest due across them; paces move. */
function modelClaim(model: Model, at: number, limit: number): ModelMessage[] {
  const due = pending(model)
    .filter((message) => message.state !== "held" && message.dueAt <= at)
    .sort((a, b) => a.dueAt - b.dueAt || (a.position < b.position ? -1 : 1));
  const offered: ModelMessage[] = [];
  const since = new Map<number, number>();
  model.webhooks.forEach((webhook, index) => {
    const own = due.filter((message) => message.webhook === index);
    if (own.length === 0) return;
    let take = limit;
    if (webhook.rate !== null) {
      if (webhook.pace === null) throw new Error("model: a rate-limited webhook without a pace row");
      // The window is max(1 s, 1 s / rate): 1 s for every whole rate.
      const from = Math.max(webhook.pace, at - 1000);
      since.set(index, from);
      take = Math.min(take, Math.floor(((at - from) * webhook.rate) / 1000));
    }
    offered.push(...own.slice(0, Math.max(take, 0)));
  });
  const chosen = offered.sort((a, b) => a.dueAt - b.dueAt || (a.position < b.position ? -1 : 1)).slice(0, limit);
  for (const [index, from] of since) {
    const webhook = model.webhooks[index]!;
    webhook.pace = from + (chosen.filter((message) => message.webhook === index).length * 1000) / webhook.rate!;
  }
  for (const message of chosen) {
    message.state = "running";
    message.leasedAt = at;
    message.dueAt = at + leaseMs();
  }
  return chosen;
}

/** Whether a try of a claim made now starts (attempt.ts: not when the lease has nearly run out). */
const leaseStillGood = (claim: ModelClaim, at: number) => claim.leasedAt + leaseMs() - at >= answerDeadlineMs;

/** Records a batch of tried messages as record.ts does; returns each one's outcome. */
function modelRecord(model: Model, batch: ModelAttempted[], at: number): DeliveryOutcome[] {
  const outcomes: DeliveryOutcome[] = [];
  const tried = new Map<number, { success: boolean; failure: boolean }>();
  for (const entry of batch) {
    if (entry.kind === "lease_lost") {
      outcomes.push("lease_lost");
      continue;
    }
    const message = messageById(model, entry.messageId)!;
    if (message.status !== "pending" || message.state !== "running" || message.leasedAt !== entry.leasedAt) {
      outcomes.push("gone");
      continue;
    }
    const attempt = entry.attemptCount + 1;
    const mark = tried.get(message.webhook) ?? { success: false, failure: false };
    tried.set(message.webhook, { success: mark.success || entry.succeeded, failure: mark.failure || !entry.succeeded });
    message.attempts = attempt;
    message.logAttempts = attempt;
    if (entry.succeeded) {
      modelEnd(model, message, "succeeded", null);
      outcomes.push("succeeded");
      continue;
    }
    const delay = retryDelayAfter(attempt);
    if (delay !== null && attempt < maxAttempts) {
      message.state = "ready";
      message.dueAt = at + delay;
      message.leasedAt = null;
      message.failureReason = null;
      outcomes.push("retry_scheduled");
    } else {
      modelEnd(model, message, "failed", null);
      outcomes.push("failed");
    }
  }
  for (const [index, { success }] of tried) {
    const webhook = model.webhooks[index]!;
    webhook.failingSince = success ? null : (webhook.failingSince ?? at);
    // The failure policy (a day without a success alerts, three turn the webhook off) is out of this model's reach:
    // sequences are too short to get there, and this says so should that change.
    if (webhook.failingSince !== null && at - webhook.failingSince >= alertAfterMs) throw new Error("model: a failure run reached the failure policy");
  }
  return outcomes;
}

function modelEndWebhook(model: Model, index: number) {
  const ended = pending(model).filter((message) => message.webhook === index);
  for (const message of ended) {
    message.status = "failed";
    message.failureReason = webhookOffReason;
    message.leasedAt = null;
  }
  return ended.length;
}

// ---------------------------------------------------------------------------
// Reading the real system and comparing

type QueueRow = {
  id: string;
  webhook: number;
  candidateId: string | null;
  state: State;
  dueAt: number;
  leasedAt: number | null;
  attempts: number;
  position: bigint;
};

async function readQueue(model: Model): Promise<QueueRow[]> {
  const ids = model.webhooks.map((webhook) => webhook.id);
  const rows = await test.ctx.db.execute<{
    message_id: string;
    webhook_id: string;
    candidate_id: string | null;
    state: State;
    due_at: string;
    leased_at: string | null;
    attempt_count: number;
    position: string;
  }>(sql`
    select message_id, webhook_id, candidate_id, state, (extract(epoch from due_at) * 1000)::bigint::text as due_at,
      (extract(epoch from leased_at) * 1000)::bigint::text as leased_at, attempt_count, position::text as position
    from webhook_queue q where q.webhook_id = any(${sql.param(ids)}::text[]) order by q.position`);
  return [...rows].map((row) => ({
    id: row.message_id,
    webhook: ids.indexOf(row.webhook_id),
    candidateId: row.candidate_id,
    state: row.state,
    dueAt: Number(row.due_at),
    leasedAt: row.leased_at === null ? null : Number(row.leased_at),
    attempts: row.attempt_count,
    position: BigInt(row.position),
  }));
}

type LogRow = {
  id: string;
  webhook: number;
  candidateId: string | null;
  eventId: string;
  origin: Origin;
  seq: bigint;
  status: LogStatus;
  attempts: number;
  failureReason: string | null;
};

async function readLog(model: Model): Promise<LogRow[]> {
  const ids = model.webhooks.map((webhook) => webhook.id);
  const rows = await test.ctx.db.execute<{
    id: string;
    webhook_id: string;
    candidate_id: string | null;
    event_id: string;
    origin: Origin;
    seq: string;
    status: LogStatus;
    attempt_count: number;
    failure_reason: string | null;
  }>(sql`
    select id, webhook_id, candidate_id, event_id, origin, seq::text as seq, status, attempt_count, failure_reason
    from webhook_messages m where m.webhook_id = any(${sql.param(ids)}::text[]) order by m.seq`);
  return [...rows].map((row) => ({
    id: row.id,
    webhook: ids.indexOf(row.webhook_id),
    candidateId: row.candidate_id,
    eventId: row.event_id,
    origin: row.origin,
    seq: BigInt(row.seq),
    status: row.status,
    attempts: row.attempt_count,
    failureReason: row.failure_reason,
  }));
}

/** The messages the log has that the model does not know yet, in position order; each one's position is after every known one. */
async function newLogRows(model: Model): Promise<LogRow[]> {
  const known = new Set(model.messages.map((message) => message.id));
  const fresh = (await readLog(model)).filter((row) => !known.has(row.id));
  let last = 0n;
  for (const message of model.messages) if (message.position > last) last = message.position;
  for (const row of fresh) expect(row.seq > last, `new message ${row.id} queued behind a known one`).toBe(true);
  return fresh;
}

const newMessage = (row: LogRow, at: number): ModelMessage => ({
  id: row.id,
  webhook: row.webhook,
  candidateId: row.candidateId,
  eventId: row.eventId,
  origin: row.origin,
  position: row.seq,
  status: "pending",
  failureReason: null,
  logAttempts: 0,
  state: "held",
  dueAt: at,
  leasedAt: null,
  attempts: 0,
});

/** Adopts what was queued, which must be `expected` exactly (webhook, event, origin, candidate) in this order. */
async function adoptInOrder(model: Model, expected: Array<Pick<ModelMessage, "webhook" | "eventId" | "origin" | "candidateId">>, at: number) {
  const fresh = await newLogRows(model);
  expect(fresh.map(({ webhook, eventId, origin, candidateId }) => ({ webhook, eventId, origin, candidateId }))).toEqual(expected);
  modelEnqueue(
    model,
    fresh.map((row) => newMessage(row, at)),
  );
  return fresh;
}

/** The requests the receiver got, as the model compares them. */
function receivedSends(): Send[] {
  return bed.receiver.received.map((request, index) => {
    const body = JSON.parse(request.body) as { test: boolean; candidate?: { id: string } };
    return {
      path: request.path,
      eventId: String(request.headers["service-event-id"]),
      attempt: String(request.headers["service-delivery-attempt"]),
      test: body.test,
      candidateId: body.test ? null : (body.candidate?.id ?? null),
      status: answered[index]!,
    };
  });
}

/** After every step: the queue, the log and the receiver agree with the model, and the queue's invariants hold. */
async function agree(model: Model) {
  const queue = await readQueue(model);
  const expectedQueue = pending(model)
    .sort((a, b) => (a.position < b.position ? -1 : 1))
    .map(({ id, webhook, candidateId, state, dueAt, leasedAt, attempts, position }) => ({
      id,
      webhook,
      candidateId,
      state,
      dueAt,
      leasedAt,
      attempts,
      position,
    }));
  expect(queue, "the queue").toEqual(expectedQueue);
  const log = (await readLog(model)).map(({ id, status, attempts, failureReason }) => ({ id, status, attempts, failureReason }));
  const expectedLog = [...model.messages]
    .sort((a, b) => (a.position < b.position ? -1 : 1))
    .map(({ id, status, logAttempts, failureReason }) => ({ id, status, attempts: logAttempts, failureReason }));
  expect(log, "the log").toEqual(expectedLog);
  expect(receivedSends(), "the requests the receiver got").toEqual(model.sends);
  await assertQueueInvariants(test.ctx.db);
}

/** What the sequences did, printed at the end: a model that never reaches a case checks nothing of it. */
const tally = new Map<string, number>();
const count = (what: string, by = 1) => tally.set(what, (tally.get(what) ?? 0) + by);

// ---------------------------------------------------------------------------
// The receiver's answers, set per request

let answerNext = 200;
const answered: number[] = [];

/** Tries one claimed message with the receiver answering `status`: the model predicts whether a request goes, and what it carries. */
async function tryClaim(model: Model, real: Real, index: number, status: number): Promise<{ modelAttempted: ModelAttempted; attempted: Attempted }> {
  const [claim] = model.claims.splice(index, 1);
  const [claimed] = real.claims.splice(index, 1);
  const at = now();
  const message = messageById(model, claim!.messageId)!;
  answerNext = status;
  const before = bed.receiver.received.length;
  const attempted = await attemptDelivery(bed.deps, claimed!);
  const starts = leaseStillGood(claim!, at);
  expect(attempted.kind, `try of ${message.id}`).toBe(starts ? "sent" : "lease_lost");
  expect(bed.receiver.received.length - before).toBe(starts ? 1 : 0);
  if (starts) {
    model.sends.push({
      path: pathOf(message.webhook),
      eventId: message.eventId,
      attempt: String(claim!.attemptCount + 1),
      test: message.origin === "sample",
      candidateId: message.candidateId,
      status,
    });
    expect(attempted.kind === "sent" && attempted.result.succeeded).toBe(status === 200);
  }
  return { modelAttempted: { ...claim!, kind: starts ? "sent" : "lease_lost", succeeded: status === 200 }, attempted };
}

/** Records a batch in the model and for real; the outcomes agree; a delivery the engine accepted is, in its chain, after the last one. */
async function record(model: Model, real: Real, modelBatch: ModelAttempted[], batch: Attempted[]) {
  const outcomes = await recordOutcomes(bed.deps, batch);
  const expected = modelRecord(model, modelBatch, now());
  const ids = modelBatch.map((entry) => entry.messageId);
  // The outcomes are keyed by message: two tries of one message in a batch (a stale one and the current one) share a key.
  ids.forEach((id, index) => {
    count(`outcome ${expected[index]}`);
    if (ids.indexOf(id) === ids.lastIndexOf(id)) expect(outcomes.get(id), `outcome of ${id}`).toBe(expected[index]);
    else count("batch with two tries of one message");
  });
  for (const id of new Set(ids)) {
    if (outcomes.get(id) !== "succeeded") continue;
    const message = messageById(model, id)!;
    const chain = chainOf(message);
    if (chain === null) continue;
    const last = real.accepted.get(chain);
    expect(last === undefined || last < message.position, `${id} delivered after a later message of its chain`).toBe(true);
    real.accepted.set(chain, message.position);
  }
}

async function claimNow(model: Model, real: Real, limit: number) {
  const at = now();
  const { messages } = await claimDue(test.ctx.db, test.clock.now(), { limit });
  const runningBefore = new Set(
    pending(model)
      .filter((message) => message.state === "running")
      .map((message) => message.id),
  );
  const expected = modelClaim(model, at, limit);
  expect(
    messages.map((message) => message.id),
    `claim of ${limit}`,
  ).toEqual(expected.map((message) => message.id));
  count(`claim took ${messages.length}`);
  for (const claimed of messages) {
    const message = messageById(model, claimed.id)!;
    if (message.leasedAt !== at) throw new Error("model: a claimed message without its lease");
    count(runningBefore.has(claimed.id) ? "claim took over a lease that ran out" : "claim of a ready message");
    if (message.attempts > 0) count("claim of a retry");
    if (message.origin !== "event") count(`claim of a ${message.origin}`);
    if (model.webhooks[message.webhook]!.rate !== null) count("claim of a paced webhook");
    expect(claimed.attemptCount).toBe(message.attempts);
    expect(claimed.request.kind).toBe("ready");
    real.claims.push(claimed);
    model.claims.push({ messageId: claimed.id, leasedAt: at, attemptCount: claimed.attemptCount });
  }
  return messages.length;
}

// ---------------------------------------------------------------------------
// The commands

type Cmd = fc.AsyncCommand<Model, Real>;
const ok = () => true;

/** Status changes of candidates (the product's write path makes the events), then, when asked, the fan-out. */
class QueueEvents implements Cmd {
  constructor(
    readonly who: number[],
    readonly fanOut: boolean,
  ) {}
  check = ok;
  async run(model: Model, _real: Real) {
    const known = new Set(model.events.map((event) => event.id));
    for (const index of this.who) {
      const candidate = candidates[index]!;
      const to = decidedStatuses[(decidedStatuses.indexOf(candidate.status) + 1) % decidedStatuses.length]!;
      const changed = await changeStatus(test.ctx, candidate.id, { to, by: { type: "team", name: "Model" } });
      candidate.status = changed.status;
    }
    const rows = await test.ctx.db.execute<{ id: string; candidate_id: string; created_at: string }>(sql`
      select id, candidate_id, (extract(epoch from created_at) * 1000)::bigint::text as created_at from events
      where company_id = ${companyId} and type = 'candidate.status_changed' and created_at >= ${new Date(model.seqStart).toISOString()}::timestamptz
      order by tx_id, seq`);
    const fresh = [...rows]
      .filter((row) => !known.has(row.id))
      .map((row) => ({ id: row.id, candidateId: row.candidate_id, createdAt: Number(row.created_at) }));
    expect(fresh.map((event) => event.candidateId)).toEqual(this.who.map((index) => candidates[index]!.id));
    model.events.push(...fresh);
    model.unfanned.push(...fresh);
    if (this.fanOut) await fanOut(model);
    await agree(model);
  }
  toString() {
    return `queue(${this.who.map((index) => `c${index}`).join(",")}${this.fanOut ? ", fan out" : ""})`;
  }
}

/** Fan-out (fan-out.ts): each event not fanned out yet, to every webhook on now that has no message of it. */
async function fanOut(model: Model) {
  const at = now();
  await fanOutCompany(test.ctx, companyId);
  const expected: Array<{ webhook: number; eventId: string }> = [];
  for (const event of model.unfanned)
    model.webhooks.forEach((webhook, index) => {
      const has = model.messages.some((message) => message.webhook === index && message.eventId === event.id && message.origin === "event");
      if (webhook.enabled && !has) expected.push({ webhook: index, eventId: event.id });
    });
  const events = model.unfanned;
  model.unfanned = [];
  const fresh = await newLogRows(model);
  // Which webhook's message of one event comes first is fan-out's to choose; each chain's order is the history's.
  const key = (entry: { webhook: number; eventId: string }) => `${entry.webhook}/${entry.eventId}`;
  expect(fresh.map(key).sort()).toEqual(expected.map(key).sort());
  for (const row of fresh)
    expect({ origin: row.origin, candidateId: row.candidateId }).toEqual({
      origin: "event",
      candidateId: events.find((event) => event.id === row.eventId)!.candidateId,
    });
  const byChain = new Map<string, number[]>();
  for (const row of fresh) {
    const chain = `${row.webhook}/${row.candidateId}`;
    byChain.set(chain, [...(byChain.get(chain) ?? []), events.findIndex((event) => event.id === row.eventId)]);
  }
  for (const [chain, order] of byChain) expect(order, `chain ${chain} in history order`).toEqual([...order].sort((a, b) => a - b));
  modelEnqueue(
    model,
    fresh.map((row) => newMessage(row, at)),
  );
}

class FanOut implements Cmd {
  check = (model: Model) => model.unfanned.length > 0;
  async run(model: Model, _real: Real) {
    await fanOut(model);
    await agree(model);
  }
  toString() {
    return "fanOut";
  }
}

/** A claim, after the clock moves on a little (so paced webhooks can send). */
class Claim implements Cmd {
  constructor(
    readonly limit: number,
    readonly advanceMs: number,
  ) {}
  check = ok;
  async run(model: Model, real: Real) {
    test.clock.advance(this.advanceMs);
    await claimNow(model, real, this.limit);
    await agree(model);
  }
  toString() {
    return `claim(${this.limit}, +${this.advanceMs}ms)`;
  }
}

/** A dispatcher's round: a claim, each message tried with the receiver answering as given, the outcomes recorded together. */
class Round implements Cmd {
  constructor(
    readonly limit: number,
    readonly advanceMs: number,
    readonly answers: number[],
  ) {}
  check = ok;
  async run(model: Model, real: Real) {
    test.clock.advance(this.advanceMs);
    const first = model.claims.length;
    const count = await claimNow(model, real, this.limit);
    const modelBatch: ModelAttempted[] = [];
    const batch: Attempted[] = [];
    for (let index = 0; index < count; index++) {
      const tried = await tryClaim(model, real, first, this.answers[index % this.answers.length]!);
      modelBatch.push(tried.modelAttempted);
      batch.push(tried.attempted);
    }
    if (batch.length > 0) await record(model, real, modelBatch, batch);
    await agree(model);
  }
  toString() {
    return `round(${this.limit}, +${this.advanceMs}ms, answers ${this.answers.join("/")})`;
  }
}

/** A worker tries a message it holds; records the outcome at once, or dies (stalls) before recording it. */
class Try implements Cmd {
  constructor(
    readonly pick: number,
    readonly status: number,
    readonly recordNow: boolean,
  ) {}
  check = (model: Model) => model.claims.length > 0;
  async run(model: Model, real: Real) {
    const { modelAttempted, attempted } = await tryClaim(model, real, this.pick % model.claims.length, this.status);
    if (this.recordNow) await record(model, real, [modelAttempted], [attempted]);
    else {
      model.attempted.push(modelAttempted);
      real.attempted.push(attempted);
    }
    await agree(model);
  }
  toString() {
    return `try(#${this.pick}, answer ${this.status}, ${this.recordNow ? "record" : "worker dies before recording"})`;
  }
}

/** Outcomes recorded late, together: under a lease still held they count; under one another claim took, or of a webhook turned off since, they change nothing. */
class RecordLate implements Cmd {
  constructor(readonly picks: number[]) {}
  check = (model: Model) => model.attempted.length > 0;
  async run(model: Model, real: Real) {
    const chosen = [...new Set(this.picks.map((pick) => pick % model.attempted.length))].sort((a, b) => b - a);
    const modelBatch: ModelAttempted[] = [];
    const batch: Attempted[] = [];
    for (const index of chosen) {
      modelBatch.unshift(model.attempted.splice(index, 1)[0]!);
      batch.unshift(real.attempted.splice(index, 1)[0]!);
    }
    await record(model, real, modelBatch, batch);
    await agree(model);
  }
  toString() {
    return `recordLate(${this.picks.map((pick) => `#${pick}`).join(",")})`;
  }
}

/** The clock moves: a little, past a lease, or to the next due time (a retry, a lease's end; 2 h at most). */
class Advance implements Cmd {
  constructor(
    readonly kind: "ms" | "lease" | "nextDue",
    readonly ms: number,
  ) {}
  check = ok;
  async run(model: Model, _real: Real) {
    const at = now();
    const next = pending(model)
      .filter((message) => message.state !== "held" && message.dueAt > at)
      .reduce((min, message) => Math.min(min, message.dueAt), Number.POSITIVE_INFINITY);
    test.clock.advance(
      this.kind === "ms" ? this.ms : this.kind === "lease" ? leaseMs() + this.ms : Number.isFinite(next) ? Math.min(next - at, 2 * 3_600_000) : this.ms,
    );
    await agree(model);
  }
  toString() {
    return this.kind === "ms" ? `advance(${this.ms}ms)` : this.kind === "lease" ? `advance(lease + ${this.ms}ms)` : "advance(to next due)";
  }
}

/** An admin resends a message of the log (resend.ts): a new message at its chain's tail (a sample's resend is a sample). */
class Resend implements Cmd {
  constructor(readonly pick: number) {}
  check = (model: Model) => model.messages.length > 0;
  async run(model: Model, _real: Real) {
    const source = model.messages[this.pick % model.messages.length]!;
    const at = now();
    if (!model.webhooks[source.webhook]!.enabled) {
      await expect(resendMessage(test.ctx, companyId, source.id)).rejects.toThrow("Turn the webhook on before resending.");
    } else {
      const { id } = await resendMessage(test.ctx, companyId, source.id);
      const origin = source.origin === "sample" ? "sample" : "resend";
      const [added] = await adoptInOrder(model, [{ webhook: source.webhook, eventId: source.eventId, origin, candidateId: source.candidateId }], at);
      expect(added!.id).toBe(id);
    }
    await agree(model);
  }
  toString() {
    return `resend(message #${this.pick})`;
  }
}

/** Past events (backfill.ts): every event since `since` the webhook has no event message for, in history order, at the chains' tails. */
class Backfill implements Cmd {
  constructor(
    readonly webhook: number,
    readonly from: number | null,
  ) {}
  check = ok;
  async run(model: Model, _real: Real) {
    const webhook = model.webhooks[this.webhook]!;
    const since = this.from === null || model.events.length === 0 ? model.seqStart : model.events[this.from % model.events.length]!.createdAt;
    const at = now();
    if (!webhook.enabled) {
      await expect(backfill(test.ctx, companyId, webhook.id, new Date(since))).rejects.toThrow("Turn the webhook on before sending it past events.");
    } else {
      const missed = model.events.filter(
        (event) =>
          event.createdAt >= since &&
          !model.messages.some((message) => message.webhook === this.webhook && message.eventId === event.id && message.origin === "event"),
      );
      const { sent, more } = await backfill(test.ctx, companyId, webhook.id, new Date(since));
      expect({ sent, more }).toEqual({ sent: missed.length, more: false });
      await adoptInOrder(
        model,
        missed.map((event) => ({ webhook: this.webhook, eventId: event.id, origin: "event" as const, candidateId: event.candidateId })),
        at,
      );
    }
    await agree(model);
  }
  toString() {
    return `backfill(w${this.webhook}, since ${this.from === null ? "the start" : `event #${this.from}`})`;
  }
}

class Sample implements Cmd {
  constructor(readonly webhook: number) {}
  check = ok;
  async run(model: Model, _real: Real) {
    const webhook = model.webhooks[this.webhook]!;
    const at = now();
    if (!webhook.enabled) {
      await expect(sendSample(test.ctx, companyId, webhook.id, interviewId)).rejects.toThrow("Turn the webhook on before sending a sample.");
    } else {
      const { messageId, eventId } = await sendSample(test.ctx, companyId, webhook.id, interviewId);
      const [added] = await adoptInOrder(model, [{ webhook: this.webhook, eventId, origin: "sample", candidateId: null }], at);
      expect(added!.id).toBe(messageId);
    }
    await agree(model);
  }
  toString() {
    return `sample(w${this.webhook})`;
  }
}

/** Turning a webhook off ends its queued messages (failed, "webhook off"), running ones too; on again, nothing comes back. */
class SetEnabled implements Cmd {
  constructor(
    readonly webhook: number,
    readonly enabled: boolean,
  ) {}
  check = ok;
  async run(model: Model, _real: Real) {
    const webhook = model.webhooks[this.webhook]!;
    const { markedFailed } = await setWebhookEnabled(test.ctx, companyId, webhook.id, this.enabled);
    const expected = this.enabled ? 0 : modelEndWebhook(model, this.webhook);
    expect(markedFailed).toBe(expected);
    webhook.enabled = this.enabled;
    if (this.enabled) webhook.failingSince = null;
    await agree(model);
  }
  toString() {
    return `${this.enabled ? "turnOn" : "turnOff"}(w${this.webhook})`;
  }
}

/** A new rate limit (or none); a limit's pace row is made once and kept. */
class SetRate implements Cmd {
  constructor(
    readonly webhook: number,
    readonly rate: Rate,
  ) {}
  check = ok;
  async run(model: Model, _real: Real) {
    const webhook = model.webhooks[this.webhook]!;
    await updateWebhook(test.ctx, companyId, webhook.id, { rateLimitPerSecond: this.rate ?? "" }, allowReceiver(bed.receiver));
    webhook.rate = this.rate;
    if (this.rate !== null && webhook.pace === null) webhook.pace = 0;
    await agree(model);
  }
  toString() {
    return `rate(w${this.webhook}, ${this.rate ?? "none"})`;
  }
}

/**
 * A waiting message's tries run out: its row's attempt count jumps to the last
 * try's (as if it had failed and waited through the whole schedule), so its
 * next failure is for good.
 */
class LastTry implements Cmd {
  constructor(readonly pick: number) {}
  check = (model: Model) => pending(model).some((message) => message.state === "ready");
  async run(model: Model, _real: Real) {
    const ready = pending(model).filter((message) => message.state === "ready");
    const message = ready[this.pick % ready.length]!;
    await test.ctx.db.execute(sql`update webhook_queue set attempt_count = ${maxAttempts - 1} where message_id = ${message.id} and state = 'ready'`);
    message.attempts = maxAttempts - 1;
    await agree(model);
  }
  toString() {
    return `lastTry(ready #${this.pick})`;
  }
}

/** Counts each command that runs (its check passed). */
function counted(command: Cmd): Cmd {
  const name = command.toString().split("(")[0]!;
  return {
    check: (model) => command.check(model),
    run: async (model, real) => {
      count(`command ${name}`);
      await command.run(model, real);
    },
    toString: () => command.toString(),
  };
}

const webhookIndex = fc.integer({ min: 0, max: 1 });
const answer = fc.constantFrom(200, 200, 500);
const commandArbitraries = [
  fc
    .tuple(fc.array(fc.integer({ min: 0, max: candidateCount - 1 }), { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([who, fanOut]) => new QueueEvents(who, fanOut)),
  fc
    .tuple(fc.array(fc.integer({ min: 0, max: candidateCount - 1 }), { minLength: 1, maxLength: 3 }), fc.constant(true))
    .map(([who, fanOut]) => new QueueEvents(who, fanOut)),
  fc.constant(new FanOut()),
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1200 })).map(([limit, ms]) => new Claim(limit, ms)),
  fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1200 }), fc.array(answer, { minLength: 1, maxLength: 4 }))
    .map(([limit, ms, answers]) => new Round(limit, ms, answers)),
  fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1200 }), fc.array(answer, { minLength: 1, maxLength: 4 }))
    .map(([limit, ms, answers]) => new Round(limit, ms, answers)),
  fc.tuple(fc.nat(7), answer, fc.boolean()).map(([pick, status, recordNow]) => new Try(pick, status, recordNow)),
  fc.array(fc.nat(7), { minLength: 1, maxLength: 3 }).map((picks) => new RecordLate(picks)),
  fc.tuple(fc.constantFrom("ms" as const, "lease" as const, "nextDue" as const), fc.integer({ min: 1, max: 1500 })).map(([kind, ms]) => new Advance(kind, ms)),
  fc.nat(15).map((pick) => new Resend(pick)),
  fc.tuple(webhookIndex, fc.option(fc.nat(7))).map(([webhook, from]) => new Backfill(webhook, from)),
  webhookIndex.map((webhook) => new Sample(webhook)),
  fc.tuple(webhookIndex, fc.boolean()).map(([webhook, enabled]) => new SetEnabled(webhook, enabled)),
  fc.tuple(webhookIndex, fc.constantFrom(...rates)).map(([webhook, rate]) => new SetRate(webhook, rate)),
  fc.nat(7).map((pick) => new LastTry(pick)),
];

// ---------------------------------------------------------------------------
// Each sequence starts afresh: two new webhooks (the last sequence's are deleted with their log), nothing queued, nothing claimed.

let previousWebhooks: string[] = [];

async function freshSequence(initialRates: [Rate, Rate]): Promise<{ model: Model; real: Real }> {
  for (const id of previousWebhooks) await test.ctx.db.execute(sql`delete from webhooks where id = ${id}`);
  await test.ctx.db.delete(webhookQueue);
  await test.ctx.db.update(webhooks).set({ enabled: false });
  // Events a sequence left unfanned go to no webhook; then the clock moves on, so this sequence's events are its own.
  await fanOutCompany(test.ctx, companyId);
  await clearJobs(test.ctx.db);
  test.clock.advance(1000);
  bed.receiver.received.length = 0;
  answered.length = 0;
  bed.receiver.answer(() => {
    answered.push(answerNext);
    return { status: answerNext, body: answerNext === 200 ? "ok" : "no" };
  });
  const created: ModelWebhook[] = [];
  for (const [index, rate] of initialRates.entries()) {
    const { id } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(pathOf(index)), eventTypes: ["candidate.status_changed"], rateLimitPerSecond: rate ?? "" },
      allowReceiver(bed.receiver),
    );
    created.push({ id, enabled: true, rate, pace: rate === null ? null : 0, failingSince: null });
  }
  previousWebhooks = created.map((webhook) => webhook.id);
  return {
    model: { webhooks: created, messages: [], events: [], unfanned: [], claims: [], attempted: [], sends: [], seqStart: now() },
    real: { claims: [], attempted: [], accepted: new Map() },
  };
}

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Model");
  const interview = await makeInterview(test.ctx, companyId);
  interviewId = interview.id;
  for (let index = 0; index < candidateCount; index++) {
    const candidate = await submitCandidate(test.ctx, interview, { email: `model-${index}@example.com` });
    const [row] = await test.ctx.db.execute<{ status: CandidateStatus }>(sql`select status from candidates where id = ${candidate.id}`);
    candidates.push({ id: candidate.id, status: row!.status });
  }
});

describe("the delivery engine against its model", () => {
  it(
    `agrees over ${runs} random sequences of operations (seed ${seed})`,
    async () => {
      console.log(`engine model: seed ${seed}, ${runs} sequences (SEED=${seed} repeats this run; MODEL_RUNS=n runs more)`);
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(fc.constantFrom(...rates), fc.constantFrom(...rates)),
          fc.commands(
            commandArbitraries.map((arbitrary) => arbitrary.map(counted)),
            { maxCommands },
          ),
          async (initialRates, commands) => {
            await fc.asyncModelRun(() => freshSequence(initialRates), commands);
          },
        ),
        { numRuns: runs, seed, ...(path ? { path } : {}), endOnFailure: process.env.MODEL_SHRINK === "0" },
      );
      console.log(`engine model: ${runs} sequences in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      console.log(
        `engine model: what ran\n${[...tally]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([what, times]) => `  ${what}: ${times}`)
          .join("\n")}`,
      );
    },
    Math.max(300_000, runs * 2_000),
  );
});
