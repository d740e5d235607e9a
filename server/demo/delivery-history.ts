/**
 * The demo webhook's past. The seed plays two weeks of history in one
 * transaction; left to the worker, all of it would be delivered at the first
 * start and stamped with that moment, so the chart and the log would show
 * one busy hour. Instead each event's messages enter the log at the time the
 * event happened and are delivered then, through the real path: the log's
 * one entry point (`enqueueMessages`: chains, held messages), the
 * engine's claim, sign and record (`deliverDue`: retries on the real
 * schedule, the failure policy), a real receiver, on a clock that steps
 * through the history. What is still waiting at the end (a retry due after
 * now) is the worker's, like any other message; fan-out later finds every
 * event already logged (one message per webhook and event) and adds nothing.
 * Unlike the dispatcher's, these requests run inside the seed's transaction
 * (the dispatcher keeps none open during HTTP): the demo's own receiver, on
 * loopback, answers at once, and a seed that fails leaves nothing behind.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { events, webhookQueue, webhooks } from "@/db/schema";
import type { DeliveryDeps } from "@/server/webhooks/delivery/deps";
import { deliverDue } from "@/server/webhooks/delivery/dispatcher";
import { eventMessage, webhookTakes } from "@/server/webhooks/delivery/messages";
import { enqueueMessages } from "@/server/webhooks/delivery/queue";

/** How long after its event a message is created: about what fan-out takes. */
const fanOutLagMs = 40;
/** Messages claimed per round, as one dispatcher would. */
const claimLimit = 20;

export async function deliverHistory(deps: DeliveryDeps, companyId: string, until: Date): Promise<void> {
  const { db } = deps.ctx;
  let clock = 0;
  const onClock: DeliveryDeps = { ...deps, ctx: { ...deps.ctx, clock: { now: () => new Date(clock) } } };
  const targets = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.companyId, companyId), eq(webhooks.enabled, true)));
  const webhookIds = targets.map((webhook) => webhook.id);
  const history = await db.select().from(events).where(eq(events.companyId, companyId)).orderBy(asc(events.txId), asc(events.seq));

  /** Delivers, in time order, every attempt due up to `time`. */
  const deliverUntil = async (time: number) => {
    for (;;) {
      // The first message due.
      const [next] = await db.execute<{ at: string | null }>(sql`
        select min(due_at) as at from ${webhookQueue}
        where webhook_id = any(${sql.param(webhookIds)}::text[]) and state <> 'held' and due_at <= ${new Date(time).toISOString()}::timestamptz`);
      if (!next?.at) return;
      clock = Math.max(clock, new Date(next.at).getTime());
      if ((await deliverDue(onClock, { limit: claimLimit })).size === 0) return;
    }
  };

  for (const event of history) {
    const at = Math.min(until.getTime(), event.createdAt.getTime() + fanOutLagMs);
    await deliverUntil(at);
    clock = Math.max(clock, at);
    const messages = targets.filter((webhook) => webhookTakes(webhook, event)).map((webhook) => eventMessage(deps.ctx.newId, webhook, event));
    await enqueueMessages(db, messages, new Date(clock));
  }
  await deliverUntil(until.getTime());
}
