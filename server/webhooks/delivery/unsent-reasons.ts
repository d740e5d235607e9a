/**
 * What the delivery log says of a message that ended without reaching the
 * receiver, through no fault of the receiver's: stored with the message
 * (`failure_reason`) and shown as is, so each says what happened and what
 * one can do.
 */
import { historyRetentionDays } from "@/db/partitions";

export const eventGoneReason = `Not sent: its event or candidate no longer exists (events are kept for ${historyRetentionDays} days), so there was nothing to send.`;
export const webhookOffReason = "Not sent: the webhook was turned off before it could be delivered. Turn the webhook back on, then resend this message.";
