/**
 * Periodic work (graphile-worker cron, each minute): the failure policy for
 * webhooks that get no more attempts, and catching up fan-out whose job was
 * lost. (A lease that ran out needs nothing: the claim takes it again. The
 * history's day partitions are kept by the worker's
 * tasks/history-partitions.ts.)
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { retryOnDeadlock } from "@/db/deadlocks";
import { webhooks } from "@/db/schema";
import { enqueueFanOut } from "@/server/jobs/queue";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { companiesBehind } from "./fan-out";

export async function runWebhookMaintenance(deps: DeliveryDeps) {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const failing = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.enabled, true), isNotNull(webhooks.failingSince)));
  for (const webhook of failing) await retryOnDeadlock(() => ctx.db.transaction((tx) => applyFailurePolicy(tx, ctx, webhook, now)));

  const behind = await companiesBehind(ctx.db);
  for (const companyId of behind) await enqueueFanOut(ctx.db, companyId);

  return { fanOutsCaughtUp: behind.length };
}
