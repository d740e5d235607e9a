/**
 * Finding a company's webhook for an admin action: each takes the company it
 * acts for, so one company can never touch another's webhooks. The one
 * guard for actions that need the webhook on (resending, samples) is here.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { invalidState, notFound } from "@/server/domain/errors";

/** How many webhooks the company has, against the limit of `maxWebhooksPerCompany`. */
export async function countWebhooks(db: Executor, companyId: string) {
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(webhooks).where(eq(webhooks.companyId, companyId))) as [{ total: number }];
  return total;
}

export async function findWebhook(db: Executor, companyId: string, webhookId: string) {
  const [webhook] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.companyId, companyId)));
  if (!webhook) throw notFound("webhook", webhookId);
  return webhook;
}

/** The webhook, which must be on for what is asked (`action`: "resending", "sending a sample"). */
export async function findWebhookThatIsOn(db: Executor, companyId: string, webhookId: string, action: string) {
  const webhook = await findWebhook(db, companyId, webhookId);
  if (!webhook.enabled) throw invalidState(`Turn the webhook on before ${action}.`);
  return webhook;
}

export async function loadWebhook(ctx: DomainContext, companyId: string, webhookId: string) {
  return findWebhook(ctx.db, companyId, webhookId);
}

/** Refuses (not found) a webhook of another company, before showing anything about it. */
export async function assertOwnsWebhook(ctx: DomainContext, companyId: string, webhookId: string) {
  await findWebhook(ctx.db, companyId, webhookId);
}

export async function listWebhooks(ctx: DomainContext, companyId: string) {
  return ctx.db.select().from(webhooks).where(eq(webhooks.companyId, companyId)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}
