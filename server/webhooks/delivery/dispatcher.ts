/**
 * The delivery dispatcher, one per worker process: a small state machine
 * over the claim (claim.ts), the tries (attempt.ts) and the recording
 * (record.ts). docs/webhook-engine.md describes what it does and why.
 *
 * Its mode says what it is doing about claiming:
 *
 * - `waiting`: nothing is being claimed; a wake (NOTIFY of messages made
 *   ready, a request ending, a recording landing, a paced webhook's time,
 *   the poll) claims;
 * - `claiming`: a claim is under way; a wake meanwhile claims again after it;
 * - `full`: every slot is taken, or as many outcomes wait to be recorded as
 *   there are slots; a request ending or a recording landing claims;
 * - `stopping`: it claims nothing more, and waits for the requests in
 *   flight and their recording;
 * - `stopped`: everything it claimed is recorded (or, with the database
 *   gone, given up on: those messages go again once their leases run out).
 *
 * Apart from the mode, the recorder records finished messages in batches,
 * one recording at a time, while other requests go on. A finished message
 * keeps its lease until its outcome is recorded, so its chain's next message
 * is ready only then.
 */
import type { Database } from "@/db/client";
import { log, withLogFields } from "@/server/log";
import { warnUnlessOutage } from "@/server/observability/outage-log";
import { type Attempted, attemptDelivery } from "./attempt";
import { type ClaimedMessage, type ClaimOptions, claimDue, paceStepMs } from "./claim";
import { deliveryLogFields, reportDeliveries } from "./delivery-report";
import type { DeliveryDeps } from "./deps";
import { readyChannel } from "./queue";
import { type DeliveryOutcome, recordOutcomes } from "./record";

export type DispatcherOptions = {
  /** Requests in flight at most, in all. */
  slots: number;
  /** Requests in flight at most to one webhook: a slow receiver holds only its own share. */
  perWebhook: number;
  /** The longest it waits without a wake before it claims (a lease that ran out, a retry fallen due, a notification missed). */
  pollMs?: number;
};

/**
 * `claims`: where claims run, a pool whose tight limits (`sessionLimits.claims`)
 * replace a connection the network cut within seconds. `recordings`: a pool
 * of one connection, on which a recording's two statements go together.
 */
export type DispatcherDeps = DeliveryDeps & { claims: Database; recordings: Database };

export type Dispatcher = { stop: () => Promise<void>; running: () => boolean };

type DispatcherMode = "waiting" | "claiming" | "full" | "stopping" | "stopped";

const transitions: Record<DispatcherMode, readonly DispatcherMode[]> = {
  waiting: ["claiming", "full", "stopping"],
  claiming: ["waiting", "full", "stopping"],
  full: ["claiming", "waiting", "stopping"],
  stopping: ["stopped"],
  stopped: [],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startDispatcher(deps: DispatcherDeps, options: DispatcherOptions): Dispatcher {
  const pollMs = options.pollMs ?? 1_000;
  let mode: DispatcherMode = "waiting";
  /** A wake came while claiming: claim again once the claim under way ends. */
  let claimAgain = false;
  /** A claim's statement is under way (also once `stopping`, which waits for it). */
  let claimUnderWay = false;
  /** The last claim took all it could, or left a webhook at its cap: a request ending makes room for more. */
  let mayHaveMore = true;
  /** Requests in flight, per webhook. */
  const inFlight = new Map<string, number>();
  let sending = 0;
  /** Outcomes waiting to be recorded, and the batch being recorded (null: the recorder is idle). */
  const finished: Attempted[] = [];
  let recording: Attempted[] | null = null;
  let poll: NodeJS.Timeout | undefined;
  let listening: { unlisten: () => Promise<void> } | null = null;
  let markStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });

  function enter(next: DispatcherMode) {
    if (next === mode) return;
    if (!transitions[mode].includes(next)) throw new Error(`webhook dispatcher: no transition from ${mode} to ${next}`);
    mode = next;
    if (next === "stopped") markStopped();
  }

  const isFull = () => sending >= options.slots || finished.length + (recording?.length ?? 0) >= options.slots;

  function wake() {
    if (mode === "stopping" || mode === "stopped") return;
    if (mode === "claiming") {
      claimAgain = true;
      return;
    }
    if (isFull()) return enter("full");
    enter("claiming");
    claimUnderWay = true;
    void claim().then((next) => {
      claimUnderWay = false;
      if (mode === "stopping") return settle();
      enter("waiting");
      if (next === "now" || claimAgain) {
        claimAgain = false;
        wake();
      } else schedulePoll(next);
    });
  }

  function schedulePoll(ms: number) {
    clearTimeout(poll);
    poll = setTimeout(wake, ms);
  }

  /** Claims what it may and sends it; returns when to look again: at once (it took all it could), or in so many milliseconds. */
  async function claim(): Promise<"now" | number> {
    const limit = options.slots - sending;
    const room = new Map([...inFlight].map(([webhookId, count]) => [webhookId, options.perWebhook - count]));
    let claimed: ClaimedMessage[] = [];
    let nextLookMs = pollMs;
    try {
      const result = await claimDue(deps.claims, deps.ctx.clock.now(), { limit, room, perWebhook: options.perWebhook });
      claimed = result.messages;
      // Never sooner than one pace step: a paced webhook at its in-flight cap reports a time already past, and a request ending wakes us anyway.
      if (result.paceWakeAt) nextLookMs = Math.max(paceStepMs, Math.min(pollMs, result.paceWakeAt.getTime() - deps.ctx.clock.now().getTime()));
    } catch (error) {
      warnUnlessOutage("webhook claims", "claiming webhook messages failed; trying again", error);
    }
    for (const message of claimed) send(message);
    mayHaveMore = claimed.length === limit || [...inFlight.values()].some((count) => count >= options.perWebhook);
    return claimed.length === limit ? "now" : nextLookMs;
  }

  function send(message: ClaimedMessage) {
    sending++;
    inFlight.set(message.webhookId, (inFlight.get(message.webhookId) ?? 0) + 1);
    void withLogFields(deliveryLogFields(message), () => attemptDelivery(deps, message)).then((attempted) => {
      sending--;
      const left = inFlight.get(message.webhookId)! - 1;
      if (left === 0) inFlight.delete(message.webhookId);
      else inFlight.set(message.webhookId, left);
      finished.push(attempted);
      record();
      // Nothing else was due at the last claim: the recording wakes us for this chain's next message.
      if (mayHaveMore || mode === "full") wake();
    });
  }

  function record() {
    if (recording || finished.length === 0) return settle();
    const batch = finished.splice(0);
    recording = batch;
    void recordUntilDone(batch).finally(() => {
      recording = null;
      record();
      if (mode === "waiting" || mode === "full") wake();
    });
  }

  async function recordUntilDone(batch: Attempted[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        reportDeliveries(batch, await recordOutcomes(deps, batch, deps.recordings));
        return;
      } catch (error) {
        if (mode === "stopping" && attempt >= 10) {
          log.error("giving up recording webhook outcomes while stopping; the messages go again after their leases", { error });
          return;
        }
        warnUnlessOutage("webhook recordings", "recording webhook outcomes failed; trying again", error);
        await sleep(Math.min(5_000, 250 * attempt));
      }
    }
  }

  /** While stopping: stopped once nothing is claimed, sent or recorded any more. */
  function settle() {
    if (mode === "stopping" && !claimUnderWay && sending === 0 && finished.length === 0 && !recording) enter("stopped");
  }

  async function listen() {
    for (let attempt = 1; mode !== "stopping" && mode !== "stopped" && !listening; attempt++) {
      try {
        // Also called on every reconnection: whatever was announced meanwhile is claimed then.
        listening = await deps.sql.listen(readyChannel, wake, wake);
      } catch (error) {
        if (attempt === 1) warnUnlessOutage("webhook wake-ups", "cannot listen for ready webhook messages yet; polling meanwhile", error);
        await sleep(Math.min(5_000, 500 * attempt));
      }
    }
  }

  void listen();
  wake();

  return {
    running: () => mode !== "stopping" && mode !== "stopped",
    async stop() {
      if (mode !== "stopping" && mode !== "stopped") {
        clearTimeout(poll);
        enter("stopping");
        settle();
      }
      await stopped;
      await listening?.unlisten().catch(() => {});
    },
  };
}

/**
 * One round without a dispatcher: claims what is due, sends it all at once,
 * records it all; returns each message's outcome. For the demo's history and
 * for tests that step a clock.
 */
export async function deliverDue(deps: DeliveryDeps, options: ClaimOptions): Promise<Map<string, DeliveryOutcome>> {
  const { messages } = await claimDue(deps.ctx.db, deps.ctx.clock.now(), options);
  if (messages.length === 0) return new Map();
  const attempted = await Promise.all(messages.map((message) => attemptDelivery(deps, message)));
  return recordOutcomes(deps, attempted);
}
