/**
 * The delivery dispatcher, one per worker process (deliver.ts does the work).
 *
 * 1. It keeps up to `slots` requests in flight, at most `perWebhook` of them
 *    to any one webhook, and claims more as soon as a request ends while more
 *    may be due (invariant 3): a slow receiver holds only its own share.
 * 2. Finished messages are recorded in batches, one recording at a time,
 *    while other requests go on. A finished message keeps its lease until its
 *    outcome is recorded (nobody else can claim it), and its chain's next
 *    message is ready only then. At most `slots` outcomes wait to be
 *    recorded: beyond that it claims nothing until the database catches up.
 * 3. It wakes on NOTIFY (messages made ready, at the commit that made them),
 *    after every recording (a finished chain's next message is ready then),
 *    when a request ends if the last claim may have left due messages behind
 *    (it took all it could, or left a webhook at its cap), when a webhook
 *    held back by its rate limit may send again, and every `pollMs` (leases
 *    that ran out, a notification missed while the database was away). At
 *    most every `pollMs` it first moves the retries that have fallen due
 *    into the ready set, and has the claim report the days the ready set
 *    spans: claims take ready rows of those days only (log-days.ts), and
 *    claim again at once when a report shows rows in other days (a claim
 *    that chose one reports at once).
 * 4. A failed claim or recording (the database restarting) is tried again; a
 *    message whose recording never lands is sent again once its lease runs out.
 * 5. `stop()` claims nothing more and waits until everything in flight is
 *    sent and recorded (or, with the database gone, given up on).
 */
import type { Executor } from "@/db/client";
import { log, withLogFields } from "@/server/log";
import { type Attempted, attemptDelivery, type ClaimedMessage, claimDue, paceStepMs, planRecording, recordOutcomes } from "@/server/webhooks/delivery/deliver";
import type { DeliveryDeps } from "@/server/webhooks/delivery/deps";
import { type Days, daysWithin, everyDay } from "@/server/webhooks/delivery/log-days";
import { promoteDueRetries, promotionBatch, readyChannel } from "@/server/webhooks/delivery/messages";
import { deliveryLogFields, reportDeliveries } from "./delivery-report";

export type DispatcherOptions = { slots: number; perWebhook: number; pollMs?: number };

/**
 * `claims`: where claims run, a pool whose tight limits (`sessionLimits.deliveries`)
 * replace a connection the network cut within seconds; the claim is one short
 * statement that skips locked rows. `recordings`: a pool of one connection,
 * so a recording's two statements go pipelined, in order (deliver.ts); they
 * wait on the chains' row locks.
 */
export type DispatcherDeps = DeliveryDeps & { claims: Executor; recordings: Executor };

export type Dispatcher = { stop: () => Promise<void>; running: () => boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startDispatcher(deps: DispatcherDeps, options: DispatcherOptions): Dispatcher {
  const pollMs = options.pollMs ?? 1_000;
  let stopping = false;
  /** Requests in flight, in all and per webhook. */
  let sending = 0;
  const inFlight = new Map<string, number>();
  /** Outcomes waiting to be recorded, and how many the recording under way holds. */
  const finished: Attempted[] = [];
  let beingRecorded = 0;
  let claiming = false;
  /** The last claim took all it could, or left a webhook at its cap: a request ending makes room for more (invariant 3). */
  let mayHaveMore = true;
  /** The days the ready set spanned at the claim's last report (invariant 3), where claims look. */
  let readyDays: Days = everyDay;
  let recording = false;
  let wokenWhileClaiming = false;
  let poll: NodeJS.Timeout | undefined;
  let promotedAt = 0;
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
    // A request ending or a recording landing wakes it again.
    if (sending >= options.slots || finished.length + beingRecorded >= options.slots) return;
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
    const limit = options.slots - sending;
    const room = new Map([...inFlight].map(([webhookId, count]) => [webhookId, options.perWebhook - count]));
    let claimed: ClaimedMessage[];
    let paceWakeAt: Date | null;
    try {
      const now = deps.ctx.clock.now();
      const promoteAndReport = now.getTime() - promotedAt >= pollMs;
      if (promoteAndReport) {
        // A full batch: more may be due, so the next claim promotes again.
        if ((await promoteDueRetries(deps.claims, now)) < promotionBatch) promotedAt = now.getTime();
      }
      const claim = await claimDue(deps.claims, now, { limit, room, perWebhook: options.perWebhook, days: readyDays, reportDays: promoteAndReport });
      ({ messages: claimed, paceWakeAt } = claim);
      if (claim.readyDays) {
        // Ready rows outside the days it looked in waited: claim again at once, in the days they are in.
        if (!daysWithin(claim.readyDays, readyDays)) wokenWhileClaiming = true;
        readyDays = claim.readyDays;
      }
    } catch (error) {
      log.warn("claiming webhook messages failed; trying again", { error });
      schedulePoll(pollMs);
      return;
    }
    for (const message of claimed) {
      sending++;
      inFlight.set(message.webhookId, (inFlight.get(message.webhookId) ?? 0) + 1);
      void withLogFields(deliveryLogFields(message), () => attemptDelivery(deps, message))
        .catch((error: unknown): Attempted => {
          log.error("a webhook attempt failed unexpectedly; it goes again when its lease runs out", { error, ...deliveryLogFields(message) });
          return { message, kind: "lease_lost" };
        })
        .then((attempted) => {
          sending--;
          const left = inFlight.get(message.webhookId)! - 1;
          if (left === 0) inFlight.delete(message.webhookId);
          else inFlight.set(message.webhookId, left);
          finished.push(attempted);
          record();
          // Nothing else was due at the last claim: the recording wakes us for this chain's next message, and an
          // idle worker's claim run now would only hold up that one.
          if (mayHaveMore) wake();
        });
    }
    // A full claim: more may be due. Otherwise nothing claimable is due now,
    // unless a webhook's rate limit lets it send again before the next poll.
    // Never sooner than one pace step: a paced webhook at its in-flight cap
    // reports a time already past, and a request ending wakes us anyway.
    mayHaveMore = claimed.length === limit || [...inFlight.values()].some((count) => count >= options.perWebhook);
    if (claimed.length === limit) wokenWhileClaiming = true;
    else schedulePoll(paceWakeAt ? Math.max(paceStepMs, Math.min(pollMs, paceWakeAt.getTime() - deps.ctx.clock.now().getTime())) : pollMs);
  }

  function record() {
    if (recording || finished.length === 0) return;
    recording = true;
    const batch = finished.splice(0);
    beingRecorded = batch.length;
    void recordUntilDone(batch).finally(() => {
      beingRecorded = 0;
      recording = false;
      record();
      wake();
    });
  }

  async function recordUntilDone(batch: Attempted[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        reportDeliveries(batch, await recordOutcomes(deps, batch, (work) => work(deps.recordings)));
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
  // The first claim plans the claim; the recording is planned now, before an outcome waits for it.
  void planRecording(deps.recordings, deps.ctx.clock.now()).catch((error: unknown) =>
    log.warn("planning the webhook recording ahead failed; the first recording plans it", { error }),
  );
  wake();

  return {
    running: () => !stopping,
    async stop() {
      stopping = true;
      clearTimeout(poll);
      while (claiming || recording || sending > 0 || finished.length > 0) await sleep(10);
      await listening?.unlisten().catch(() => {});
    },
  };
}
