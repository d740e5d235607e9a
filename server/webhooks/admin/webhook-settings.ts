/**
 * Creating, changing and deleting a webhook, and revealing its custom
 * headers. The settings pages, the CLI and the tests all call these.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { companies, interviews, webhookSendPaces, webhooks } from "@/db/schema";
import { withDeadline } from "@/server/deadline";
import type { DomainContext } from "@/server/domain/context";
import { DomainError, invalidInput, notFound, parseInput } from "@/server/domain/errors";
import { decryptHeaders, encryptHeaders, mergeHeaderChanges, sameHeaders } from "../delivery/custom-headers";
import { type Resolver, systemResolver } from "../delivery/delivery-client";
import { resolveAndVet } from "../delivery/ip-policy";
import { makeRetriesDueNow } from "../delivery/queue";
import { encryptSecret, generateSecret } from "../delivery/secrets";
import { hostnameOf, targetOf } from "./address";
import { assertOwnsWebhook, countWebhooks, findWebhook } from "./find-webhook";
import { maxWebhooksPerCompany, type WebhookChangesInput, type WebhookSettingsInput, webhookChangesSchema, webhookSettingsSchema } from "./settings-schema";

/**
 * What a saved address is vetted with: the exact host:port targets allowed
 * despite the public-address rule (WEBHOOK_ALLOW_TARGETS, as the caller's
 * process has them; the same the delivery client is given) and the resolver.
 */
export type AddressOptions = { allowTargets: readonly string[]; resolver?: Resolver };

/** A host name answered "no such name" (NXDOMAIN, or no address records). */
const unresolvedCodes = new Set(["ENOTFOUND", "ENODATA"]);

export const unresolvedHostWarning = (host: string) =>
  `${host} does not resolve yet; messages will fail until it does. Check the address for a typo, or create the host name.`;

/**
 * Resolves the host when the address is saved. A name that points into a
 * private network is refused, with the reason. A name that does not exist
 * (yet) is saved with a warning to show: it may be created later, and
 * deliveries check again at every connection. Any other resolver failure
 * (a timeout, EAI_AGAIN) says nothing about the name, so it is saved without
 * a word; if it lasts, the delivery log shows each try's DNS error. Targets
 * in WEBHOOK_ALLOW_TARGETS count as resolving.
 */
async function vetAddressOnSave(url: string, { allowTargets, resolver = systemResolver }: AddressOptions): Promise<string | null> {
  const parsed = new URL(url);
  if (allowTargets.includes(targetOf(parsed))) return null;
  const host = hostnameOf(parsed);
  let vetted: Awaited<ReturnType<typeof resolveAndVet>>;
  try {
    // A save waits for the check at most 3 s; a resolver that slow says nothing about the name either.
    vetted = await withDeadline(resolveAndVet(host, resolver), 3_000);
  } catch (error) {
    const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
    return code && unresolvedCodes.has(code) ? unresolvedHostWarning(host) : null;
  }
  if (vetted.refused) throw invalidInput(`The address must use a public host name (${host} resolves to ${vetted.refused}).`);
  return vetted.addresses.length === 0 ? unresolvedHostWarning(host) : null;
}

async function assertInterviewsOwned(db: Executor, companyId: string, interviewIds: string[] | null) {
  if (!interviewIds) return;
  const owned = await db
    .select({ id: interviews.id })
    .from(interviews)
    .where(and(eq(interviews.companyId, companyId), inArray(interviews.id, interviewIds), isNull(interviews.deletedAt)));
  const missing = interviewIds.filter((id) => !owned.some((row) => row.id === id));
  if (missing.length > 0) throw invalidInput(`No interview with id ${missing.join(", ")}.`);
}

/**
 * Creates a webhook and returns its signing secret (also readable later by
 * admins), its custom headers as saved (shown once; admins can reveal them
 * later), and a warning when its host name does not resolve yet.
 */
export async function createWebhook(ctx: DomainContext, companyId: string, input: WebhookSettingsInput, addresses: AddressOptions) {
  const settings = parseInput(webhookSettingsSchema(addresses.allowTargets), input);
  const addressWarning = await vetAddressOnSave(settings.url, addresses);
  const secret = generateSecret();
  const id = ctx.newId("webhook");
  await ctx.db.transaction(async (tx) => {
    // The company row lock makes concurrent creations count one after another.
    const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for("update");
    if (!company) throw notFound("company", companyId);
    if ((await countWebhooks(tx, companyId)) >= maxWebhooksPerCompany) {
      throw new DomainError("conflict", `A company can have at most ${maxWebhooksPerCompany} webhooks.`);
    }
    await assertInterviewsOwned(tx, companyId, settings.interviewIds);
    const now = ctx.clock.now();
    await tx.insert(webhooks).values({
      id,
      companyId,
      url: new URL(settings.url).toString(),
      name: settings.name,
      description: settings.description,
      eventTypes: settings.eventTypes,
      allInterviews: settings.interviewIds === null,
      interviewIds: settings.interviewIds ?? [],
      rateLimitPerSecond: settings.rateLimitPerSecond,
      secretCiphertext: encryptSecret(secret),
      customHeadersCiphertext: encryptHeaders(settings.customHeaders),
      conditions: settings.conditions,
      createdAt: now,
      updatedAt: now,
    });
    if (settings.rateLimitPerSecond !== null) await startPacing(tx, id);
  });
  return { id, secret, customHeaders: settings.customHeaders, addressWarning };
}

/**
 * Changes a webhook's settings. A new address or new custom headers take the
 * waiting messages straight away: they are due now, whatever their retry time
 * was (each try reads both when it is sent). Returns the custom headers as
 * saved when they changed (shown once), and a warning when a new address's
 * host name does not resolve yet.
 */
export async function updateWebhook(ctx: DomainContext, companyId: string, webhookId: string, input: WebhookChangesInput, addresses: AddressOptions) {
  const settings = parseInput(webhookChangesSchema(addresses.allowTargets), input);
  const addressWarning = settings.url === undefined ? null : await vetAddressOnSave(settings.url, addresses);
  return ctx.db.transaction(async (tx) => {
    const webhook = await findWebhook(tx, companyId, webhookId);
    if (settings.interviewIds !== undefined) await assertInterviewsOwned(tx, companyId, settings.interviewIds);
    const now = ctx.clock.now();
    const url = settings.url === undefined ? webhook.url : new URL(settings.url).toString();
    const savedHeaders = decryptHeaders(webhook.customHeadersCiphertext);
    const headers = settings.customHeaders === undefined ? savedHeaders : mergeHeaderChanges(savedHeaders, settings.customHeaders);
    const headersChanged = !sameHeaders(headers, savedHeaders);
    await tx
      .update(webhooks)
      .set({
        url,
        ...(settings.name !== undefined ? { name: settings.name } : {}),
        ...(settings.description !== undefined ? { description: settings.description } : {}),
        ...(settings.eventTypes ? { eventTypes: settings.eventTypes } : {}),
        ...(settings.interviewIds !== undefined ? { allInterviews: settings.interviewIds === null, interviewIds: settings.interviewIds ?? [] } : {}),
        ...(headersChanged ? { customHeadersCiphertext: encryptHeaders(headers) } : {}),
        ...(settings.conditions !== undefined ? { conditions: settings.conditions } : {}),
        ...(settings.rateLimitPerSecond !== undefined ? { rateLimitPerSecond: settings.rateLimitPerSecond } : {}),
        updatedAt: now,
      })
      .where(eq(webhooks.id, webhookId));
    if (settings.rateLimitPerSecond) await startPacing(tx, webhookId);
    if (url !== webhook.url || headersChanged) await makeRetriesDueNow(tx, webhookId, now);
    return { customHeaders: headersChanged ? headers : null, addressWarning };
  });
}

/** A rate-limited webhook's pace row, which every claim for it takes and moves (claim.ts); kept when the limit is removed, unused. */
async function startPacing(tx: Executor, webhookId: string) {
  // Its pace starts long ago: the first claim may take what a pause allows.
  await tx
    .insert(webhookSendPaces)
    .values({ webhookId, sentUntil: new Date(0) })
    .onConflictDoNothing();
}

export async function deleteWebhook(ctx: DomainContext, companyId: string, webhookId: string) {
  await assertOwnsWebhook(ctx, companyId, webhookId);
  // The delete's cascade to the queue can deadlock with a recording, which locks queue rows, then the webhook's row.
  await retryOnDeadlock(() => ctx.db.delete(webhooks).where(and(eq(webhooks.id, webhookId), eq(webhooks.companyId, companyId))));
}

/** The custom headers with their values, for an admin who asked to see them. */
export async function revealWebhookHeaders(ctx: DomainContext, companyId: string, webhookId: string) {
  return decryptHeaders((await findWebhook(ctx.db, companyId, webhookId)).customHeadersCiphertext);
}
