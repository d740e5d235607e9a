/**
 * The delivery dispatcher, one per worker process (deliver.ts does the work).
 *
 * 1. It keeps up to `slots` messages in flight, at most `perWebhook` of them
 *    to any one webhook, and claims more as soon as a slot frees up: a slow
 *    receiver holds only its own share.
 * 2. Finished messages are recorded in batches, one recording at a time, while
 *    the others are still in flight; a message keeps its slot until its
 *    outcome is recorded, because that is when its chain's next one is ready.
 * 3. It wakes on NOTIFY (messages made ready, at the commit that made them),
 *    after every recording, and every `pollMs` (retries falling due, leases
 *    that ran out, a notification missed while the database was away).
 * 4. A failed claim or recording (the database restarting) is tried again; a
 *    message whose recording never lands is sent again once its lease runs out.
 * 5. `stop()` claims nothing more and waits until everything in flight is
 *    sent and recorded (or, with the database gone, given up on).
 */
import { log } from "@/server/log";
import { type Attempted, attemptDelivery, type ClaimedMessage, claimDue, recordOutcomes } from "@/server/webhooks/deliver";
import type { DeliveryDeps } from "@/server/webhooks/deps";
import { readyChannel } from "@/server/webhooks/messages";

export type DispatcherOptions = { slots: number; perWebhook: number; pollMs?: number };

export type Dispatcher = { stop: () => Promise<void> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startDispatcher(deps: DeliveryDeps, options: DispatcherOptions): Dispatcher {
  const pollMs = options.pollMs ?? 1_000;
  let stopping = false;
  let occupied = 0;
  /** Per webhook: messages claimed and not yet recorded. */
  const inFlight = new Map<string, number>();
  const finished: Attempted[] = [];
  let claiming = false;
  let recording = false;
  let wokenWhileClaiming = false;
  let poll: NodeJS.Timeout | undefined;
  let listening: { unlisten: () => Promise<void> } | null = null;

  const schedulePoll = (ms: number) => {
    clearTimeout(poll);
    if (!stopping) poll = setTimeout(wake, ms);
  };

  function wake() {
    if (stopping) return;
    if (claiming) {
      wokenWhileClaiming = true;
      return;
    }
    if (occupied >= options.slots) return; // a recording frees slots, then wakes
    claiming = true;
    void claim().finally(() => {
      claiming = false;
      if (wokenWhileClaiming) {
        wokenWhileClaiming = false;
        wake();
      }
    });
  }

  async function claim() {
    const limit = options.slots - occupied;
    const room = new Map([...inFlight].map(([webhookId, count]) => [webhookId, options.perWebhook - count]));
    let claimed: ClaimedMessage[];
    try {
      claimed = await claimDue(deps.ctx.db, deps.ctx.clock.now(), { limit, room, perWebhook: options.perWebhook });
    } catch (error) {
      log.warn("claiming webhook messages failed; trying again", { error });
      schedulePoll(pollMs);
      return;
    }
    for (const message of claimed) {
      occupied++;
      inFlight.set(message.webhookId, (inFlight.get(message.webhookId) ?? 0) + 1);
      void attemptDelivery(deps, message)
        .catch((error: unknown): Attempted => {
          log.error("a webhook attempt failed unexpectedly; it goes again when its lease runs out", { error, messageId: message.id });
          return { message, kind: "lease_lost" };
        })
        .then((attempted) => {
          finished.push(attempted);
          record();
        });
    }
    // A full claim: more may be due. Otherwise nothing claimable is due now.
    if (claimed.length === limit) wokenWhileClaiming = true;
    else schedulePoll(pollMs);
  }

  function record() {
    if (recording || finished.length === 0) return;
    recording = true;
    const batch = finished.splice(0);
    void recordUntilDone(batch).finally(() => {
      for (const { message } of batch) {
        occupied--;
        const left = (inFlight.get(message.webhookId) ?? 1) - 1;
        if (left === 0) inFlight.delete(message.webhookId);
        else inFlight.set(message.webhookId, left);
      }
      recording = false;
      record();
      wake();
    });
  }

  async function recordUntilDone(batch: Attempted[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        await recordOutcomes(deps, batch);
        return;
      } catch (error) {
        if (stopping && attempt >= 10) {
          log.error("giving up recording webhook outcomes while stopping; the messages go again after their leases", { error });
          return;
        }
        log.warn("recording webhook outcomes failed; trying again", { error });
        await sleep(Math.min(5_000, 250 * attempt));
      }
    }
  }

  async function listen() {
    for (let attempt = 1; !stopping && !listening; attempt++) {
      try {
        // Also called on every reconnection: whatever was announced meanwhile is claimed then.
        listening = await deps.sql.listen(readyChannel, wake, wake);
      } catch (error) {
        if (attempt === 1) log.warn("cannot listen for ready webhook messages yet; polling meanwhile", { error });
        await sleep(Math.min(5_000, 500 * attempt));
      }
    }
  }

  void listen();
  wake();

  return {
    async stop() {
      stopping = true;
      clearTimeout(poll);
      while (claiming || recording || occupied > 0) await sleep(10);
      await listening?.unlisten().catch(() => {});
    },
  };
}
