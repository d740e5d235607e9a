/**
 * Webhook settings and the actions on its log. The settings pages, the CLI
 * and the tests all call these; each takes the company it acts for, so one
 * company can never touch another's webhooks.
 */
import { and, asc, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { companies, type EventType, interviews, webhookMessages, webhookSendPaces, webhooks } from "@/db/schema";
import { withDeadline } from "@/server/deadline";
import type { DomainContext } from "@/server/domain/context";
import { DomainError, invalidInput, invalidState, notFound, parseInput } from "@/server/domain/errors";
import { decryptHeaders, encryptHeaders, mergeHeaderChanges, sameHeaders } from "../delivery/custom-headers";
import { type Resolver, systemResolver } from "../delivery/delivery-client";
import { failWaitingMessages } from "../delivery/failure-policy";
import { resolveAndVet } from "../delivery/ip-policy";
import { announceReady, enqueueMessages } from "../delivery/messages";
import { decryptSecret, encryptSecret, generateSecret } from "../delivery/secrets";
import { hostnameOf, targetOf } from "./address";
import { sampleEventBody } from "./sample";
import { maxWebhooksPerCompany, type WebhookChangesInput, type WebhookSettingsInput, webhookChangesSchema, webhookSettingsSchema } from "./settings-schema";

export const secretOverlapMs = 24 * 60 * 60 * 1000;
export const maxResendBatch = 1000;

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

/** How many webhooks the company has, against the limit of `maxWebhooksPerCompany`. */
export async function countWebhooks(db: Executor, companyId: string) {
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(webhooks).where(eq(webhooks.companyId, companyId))) as [{ total: number }];
  return total;
}

async function findWebhook(db: Executor, companyId: string, webhookId: string) {
  const [webhook] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.companyId, companyId)));
  if (!webhook) throw notFound("webhook", webhookId);
  return webhook;
}

/** The webhook, which must be on for what is asked (`action`: "resending", "sending a sample"). */
async function findWebhookThatIsOn(db: Executor, companyId: string, webhookId: string, action: string) {
  const webhook = await findWebhook(db, companyId, webhookId);
  if (!webhook.enabled) throw invalidState(`Turn the webhook on before ${action}.`);
  return webhook;
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
    if (url !== webhook.url || headersChanged) await redeliverWaitingNow(tx, webhookId, now);
    return { customHeaders: headersChanged ? headers : null, addressWarning };
  });
}

/** A rate-limited webhook's pace row, which every claim for it takes and moves (deliver.ts); kept when the limit is removed, unused. */
async function startPacing(tx: Executor, webhookId: string) {
  // Its pace starts long ago: the first claim may take what a pause allows.
  await tx
    .insert(webhookSendPaces)
    .values({ webhookId, sentUntil: new Date(0) })
    .onConflictDoNothing();
}

/** Waiting retries go now (into the ready set); held messages still wait their turn in their chains. */
async function redeliverWaitingNow(tx: Executor, webhookId: string, now: Date) {
  await tx
    .update(webhookMessages)
    .set({ nextAttemptAt: now })
    .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.status, "pending")));
  await tx.execute(sql`
    with waiting as (delete from webhook_waiting_retries where webhook_id = ${webhookId} returning *)
    insert into webhook_ready_messages (message_id, history_at, webhook_id, due_at, seq)
    select message_id, history_at, webhook_id, ${now.toISOString()}::timestamptz, seq from waiting
    on conflict (message_id) do nothing`);
  await announceReady(tx);
}

/** Turning off marks the waiting messages failed (they can be resent later) and returns how many. */
export async function setWebhookEnabled(ctx: DomainContext, companyId: string, webhookId: string, enabled: boolean, by = "an admin") {
  return retryOnDeadlock(() =>
    ctx.db.transaction(async (tx) => {
      await findWebhook(tx, companyId, webhookId);
      const now = ctx.clock.now();
      await tx
        .update(webhooks)
        .set(
          enabled
            ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null, failureAlertedAt: null, updatedAt: now }
            : { enabled: false, disabledAt: now, disabledReason: `Turned off by ${by}`, updatedAt: now },
        )
        .where(eq(webhooks.id, webhookId));
      return { markedFailed: enabled ? 0 : await failWaitingMessages(tx, webhookId, now) };
    }),
  );
}

export async function deleteWebhook(ctx: DomainContext, companyId: string, webhookId: string) {
  await assertOwnsWebhook(ctx, companyId, webhookId);
  await ctx.db.delete(webhooks).where(and(eq(webhooks.id, webhookId), eq(webhooks.companyId, companyId)));
}

/** Replaces the signing secret; the old one keeps signing for 24 hours. */
export async function rotateWebhookSecret(ctx: DomainContext, companyId: string, webhookId: string) {
  const secret = generateSecret();
  const now = ctx.clock.now();
  const previousValidUntil = new Date(now.getTime() + secretOverlapMs);
  await ctx.db.transaction(async (tx) => {
    const webhook = await findWebhook(tx, companyId, webhookId);
    await tx
      .update(webhooks)
      .set({
        secretCiphertext: encryptSecret(secret),
        previousSecretCiphertext: webhook.secretCiphertext,
        previousSecretExpiresAt: previousValidUntil,
        updatedAt: now,
      })
      .where(eq(webhooks.id, webhookId));
  });
  return { secret, previousValidUntil };
}

/**
 * Ends the replaced secret's overlap now: from the next attempt on, messages
 * carry one signature, with the current secret only.
 */
export async function expirePreviousSecret(ctx: DomainContext, companyId: string, webhookId: string) {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const webhook = await findWebhook(tx, companyId, webhookId);
    if (!webhook.previousSecretCiphertext || !webhook.previousSecretExpiresAt || webhook.previousSecretExpiresAt <= now) {
      throw invalidState("The previous secret no longer signs messages.");
    }
    // Only the previous secret read here: one that a replacement made previous a moment ago keeps its 24 hours.
    const ended = await tx
      .update(webhooks)
      .set({ previousSecretCiphertext: null, previousSecretExpiresAt: null, updatedAt: now })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.previousSecretCiphertext, webhook.previousSecretCiphertext)))
      .returning({ id: webhooks.id });
    if (ended.length === 0) throw invalidState("The secret was just replaced; look at the page again before stopping the previous one.");
  });
}

export async function revealWebhookSecret(ctx: DomainContext, companyId: string, webhookId: string) {
  return decryptSecret((await findWebhook(ctx.db, companyId, webhookId)).secretCiphertext);
}

/** The custom headers with their values, for an admin who asked to see them. */
export async function revealWebhookHeaders(ctx: DomainContext, companyId: string, webhookId: string) {
  return decryptHeaders((await findWebhook(ctx.db, companyId, webhookId)).customHeadersCiphertext);
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

/** New log entries for the same events: current data, current address, tries from 1; each points at the message it resends. */
async function enqueueCopies(ctx: DomainContext, tx: Executor, sources: Array<typeof webhookMessages.$inferSelect>, now: Date) {
  return enqueueMessages(
    tx,
    sources.map((source) => ({
      id: ctx.newId("message"),
      companyId: source.companyId,
      webhookId: source.webhookId,
      origin: source.origin === "sample" ? ("sample" as const) : ("resend" as const),
      eventId: source.eventId,
      eventType: source.eventType,
      candidateId: source.candidateId,
      eventTxId: source.eventTxId,
      eventSeq: source.eventSeq,
      isTest: source.isTest,
      sampleBody: source.sampleBody,
      resentFrom: source.id,
    })),
    now,
  );
}

/**
 * Sends a message again as a new log entry: same event id, the candidate's
 * current data, the webhook's current address, tries counted from 1.
 */
export async function resendMessage(ctx: DomainContext, companyId: string, messageId: string) {
  return ctx.db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.companyId, companyId)));
    if (!source) throw notFound("message", messageId);
    await findWebhookThatIsOn(tx, companyId, source.webhookId, "resending");
    const [id] = await enqueueCopies(ctx, tx, [source], ctx.clock.now());
    return { id: id! };
  });
}

/**
 * The latest message of each event to the webhook since `since`; the events
 * whose latest one failed are what "resend every failed message" resends (a
 * resent one that is waiting or succeeded takes its event out, so repeated
 * calls make progress). Every day of the log is read, through the log's
 * index from `since` on: a message created since then may be kept in any
 * older day (its event's).
 */
function latestPerEvent(db: Executor, webhookId: string, since: Date) {
  return db
    .selectDistinctOn([webhookMessages.eventId])
    .from(webhookMessages)
    .where(and(eq(webhookMessages.webhookId, webhookId), gte(webhookMessages.createdAt, since)))
    .orderBy(asc(webhookMessages.eventId), desc(webhookMessages.seq))
    .as("latest");
}

/** How many messages `resendFailedSince` would resend now (at most 1,000), of how many failed. */
export async function countFailedSince(ctx: DomainContext, companyId: string, webhookId: string, since: Date) {
  await findWebhookThatIsOn(ctx.db, companyId, webhookId, "resending");
  const [{ failed }] = (await failedSinceCount(ctx.db, webhookId, since)) as [{ failed: number }];
  return { failed, resendNow: Math.min(failed, maxResendBatch) };
}

/** How many events since `since` have a failed latest message: what `resendFailedSince` takes, 1,000 at a time. */
export function failedSinceCount(db: Executor, webhookId: string, since: Date) {
  const latest = latestPerEvent(db, webhookId, since);
  return db.select({ failed: sql<number>`count(*)::int` }).from(latest).where(eq(latest.status, "failed"));
}

/** Resends every failed message since `since`, oldest first, one per event, at most 1,000 at a time. */
export async function resendFailedSince(ctx: DomainContext, companyId: string, webhookId: string, since: Date) {
  return ctx.db.transaction(async (tx) => {
    await findWebhookThatIsOn(tx, companyId, webhookId, "resending");
    const latest = latestPerEvent(tx, webhookId, since);
    const failed = await tx
      .select()
      .from(latest)
      .where(eq(latest.status, "failed"))
      .orderBy(asc(latest.seq))
      .limit(maxResendBatch + 1);
    const batch = failed.slice(0, maxResendBatch);
    await enqueueCopies(ctx, tx, batch, ctx.clock.now());
    return { resent: batch.length, more: failed.length > maxResendBatch };
  });
}

/** An event of `type` about a made-up candidate for one of the company's interviews, sent with `test: true`. */
export async function sendSample(ctx: DomainContext, companyId: string, webhookId: string, interviewId: string, type: EventType = "candidate.ready") {
  return ctx.db.transaction(async (tx) => {
    const webhook = await findWebhookThatIsOn(tx, companyId, webhookId, "sending a sample");
    const eventId = ctx.newId("event");
    const body = await sampleEventBody(tx, companyId, interviewId, type, eventId, ctx.clock.now());
    const sample = {
      id: ctx.newId("message"),
      companyId,
      webhookId,
      origin: "sample" as const,
      eventId,
      eventType: type,
      candidateId: null,
      isTest: true,
      sampleBody: body,
    };
    await enqueueMessages(tx, [sample], ctx.clock.now());
    return { messageId: sample.id, eventId };
  });
}
