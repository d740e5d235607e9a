/**
 * Periodic work (graphile-worker cron): the failure policy for webhooks that
 * get no more attempts, mending the chains' rows and readying any chain left
 * without a ready head,
 * and catching up fan-out whose job was lost. (The history's day partitions,
 * events' and delivery log's alike, are kept by the worker's
 * tasks/history-partitions.ts.) (Attempts a killed worker left unfinished need
 * nothing: their lease runs out and the dispatcher claims them again.)
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { enqueueFanOut } from "@/server/jobs/queue";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { companiesBehind } from "./fan-out";
import { announceReady, mendChainRows, readyChainHeads } from "./messages";

export async function runWebhookMaintenance(deps: DeliveryDeps) {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const failing = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.enabled, true), isNotNull(webhooks.failingSince)));
  for (const webhook of failing) await ctx.db.transaction((tx) => applyFailurePolicy(tx, ctx, webhook, now));

  // Every waiting message of a chain is found through its chain row, and
  // every chain has a ready head (messages.ts); should either ever be
  // missing, the chain would wait for ever: mend the rows, then ready it.
  const chainRows = await mendChainRows(ctx.db);
  const unheaded = await ctx.db.execute<{ webhook_id: string; candidate_id: string }>(sql`
    select webhook_id, candidate_id from webhook_messages
    where status = 'pending' and candidate_id is not null
    group by webhook_id, candidate_id
    having bool_and(held)`);
  const chains = [...unheaded].map((row) => ({ webhookId: row.webhook_id, candidateId: row.candidate_id }));
  if (chains.length > 0)
    await ctx.db.transaction(async (tx) => {
      await readyChainHeads(tx, chains, now);
      await announceReady(tx);
    });

  const behind = await companiesBehind(ctx.db);
  for (const companyId of behind) await enqueueFanOut(ctx.db, companyId);

  return { chainRowsMended: chainRows.added + chainRows.removed, chainsReadied: chains.length, fanOutsCaughtUp: behind.length };
}
