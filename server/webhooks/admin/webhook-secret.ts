/** The signing secret: replacing it (with a day's overlap), ending the overlap early, and revealing it to an admin. */
import { and, eq } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { invalidState } from "@/server/domain/errors";
import { decryptSecret, encryptSecret, generateSecret, UnreadableSecret } from "../delivery/secrets";
import { findWebhook } from "./find-webhook";

export const secretOverlapMs = 24 * 60 * 60 * 1000;

/**
 * Replaces the signing secret; the old one keeps signing for 24 hours
 * (`previousValidUntil`). An old one this service cannot decrypt (saved under
 * another APP_SECRET) signs nothing and is not kept: `previousValidUntil` is
 * null, and every message's next try is signed with the new secret alone.
 */
export async function rotateWebhookSecret(ctx: DomainContext, companyId: string, webhookId: string) {
  const secret = generateSecret();
  const now = ctx.clock.now();
  const overlapEnds = new Date(now.getTime() + secretOverlapMs);
  const previousValidUntil = await ctx.db.transaction(async (tx) => {
    const webhook = await findWebhook(tx, companyId, webhookId);
    const keepsSigning = isReadable(webhook.secretCiphertext);
    await tx
      .update(webhooks)
      .set({
        secretCiphertext: encryptSecret(secret),
        previousSecretCiphertext: keepsSigning ? webhook.secretCiphertext : null,
        previousSecretExpiresAt: keepsSigning ? overlapEnds : null,
        updatedAt: now,
      })
      .where(eq(webhooks.id, webhookId));
    return keepsSigning ? overlapEnds : null;
  });
  return { secret, previousValidUntil };
}

function isReadable(ciphertext: string) {
  try {
    decryptSecret(ciphertext);
    return true;
  } catch (error) {
    if (error instanceof UnreadableSecret) return false;
    throw error;
  }
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
  try {
    return decryptSecret((await findWebhook(ctx.db, companyId, webhookId)).secretCiphertext);
  } catch (error) {
    if (!(error instanceof UnreadableSecret)) throw error;
    throw invalidState(unreadableSecretToReveal);
  }
}

export const unreadableSecretToReveal =
  "This webhook's signing secret cannot be decrypted with this service's APP_SECRET (it was saved with another), so no message can be signed. Replace the secret: the new one signs every message's next try.";
