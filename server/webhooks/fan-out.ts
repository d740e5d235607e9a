/**
 * Turns new events into messages: one per matching enabled webhook, in the
 * events' history order. A webhook disabled at that moment gets nothing.
 * Running twice for the same events adds nothing (one message per webhook and event).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { events, webhookMessages, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { scheduleDelivery } from "./jobs";

export async function fanOutEvents(ctx: DomainContext, eventIds: string[]) {
  if (eventIds.length === 0) return 0;
  return ctx.db.transaction(async (tx) => {
    const found = await tx.select().from(events).where(inArray(events.id, eventIds)).orderBy(asc(events.txId), asc(events.seq));
    const companyIds = [...new Set(found.map((event) => event.companyId))];
    if (companyIds.length === 0) return 0;
    const targets = await tx
      .select()
      .from(webhooks)
      .where(and(inArray(webhooks.companyId, companyIds), eq(webhooks.enabled, true)));
    const now = ctx.clock.now();
    const rows = found.flatMap((event) =>
      targets
        .filter((webhook) => webhook.companyId === event.companyId)
        .filter((webhook) => webhook.eventTypes.includes(event.type))
        .filter((webhook) => webhook.allInterviews || webhook.interviewIds.includes(event.interviewId))
        .map((webhook) => ({
          id: ctx.newId("message"),
          companyId: event.companyId,
          webhookId: webhook.id,
          origin: "event" as const,
          eventId: event.id,
          eventType: event.type,
          candidateId: event.candidateId,
          eventSeq: event.seq,
          nextAttemptAt: now,
          createdAt: now,
        })),
    );
    // Only a chain's first waiting message gets a job; the rest are released
    // one by one as each predecessor finishes (deliver.ts). A busy chain's
    // head already has one; if a new message comes first, its job finds out.
    const busyChains = new Set(
      rows.length === 0
        ? []
        : (
            await tx
              .selectDistinct({ webhookId: webhookMessages.webhookId, candidateId: webhookMessages.candidateId })
              .from(webhookMessages)
              .where(
                and(
                  eq(webhookMessages.status, "pending"),
                  inArray(webhookMessages.webhookId, [...new Set(rows.map((row) => row.webhookId))]),
                  inArray(webhookMessages.candidateId, [...new Set(rows.map((row) => row.candidateId))]),
                ),
              )
          ).map((chain) => `${chain.webhookId}/${chain.candidateId}`),
    );
    let created = 0;
    for (let offset = 0; offset < rows.length; offset += 1000) {
      const inserted = await tx
        .insert(webhookMessages)
        .values(rows.slice(offset, offset + 1000))
        .onConflictDoNothing({ target: [webhookMessages.webhookId, webhookMessages.eventId], where: sql`${webhookMessages.origin} = 'event'` })
        .returning({ id: webhookMessages.id, webhookId: webhookMessages.webhookId, candidateId: webhookMessages.candidateId });
      for (const message of inserted) {
        const chain = `${message.webhookId}/${message.candidateId}`;
        if (busyChains.has(chain)) continue;
        busyChains.add(chain);
        await scheduleDelivery(tx, message.id, now);
      }
      created += inserted.length;
    }
    return created;
  });
}
