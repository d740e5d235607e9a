/**
 * What the delivery log says of a message that ended without reaching the
 * receiver, through no fault of the receiver's: stored with the message
 * (`failure_reason`) and shown as is, so each says what happened and what
 * one can do.
 */
import { historyRetentionDays } from "@/db/partitions";

export const eventGoneReason = `Not sent: its event or candidate no longer exists (events are kept for ${historyRetentionDays} days), so there was nothing to send.`;
export const webhookOffReason = "Not sent: the webhook was turned off before it could be delivered. Turn the webhook back on, then resend this message.";

/*
 * Why our side could not make a try, which it makes again on the retry
 * schedule (the message waits): stored with the message while it waits, and
 * with it when it fails for good.
 */
export const unreadableSecretReason =
  "Not sent yet: the webhook's signing secret cannot be decrypted with this service's APP_SECRET (it was saved with another). Rotate the secret where the service runs, with its APP_SECRET; the message is tried again on its schedule.";
export const unreadableHeadersReason =
  "Not sent yet: the webhook's custom headers cannot be decrypted with this service's APP_SECRET (they were saved with another). Save the headers again; the message is tried again on its schedule.";
export const unbuildableBodyReason =
  "Not sent yet: the message's body could not be put together from the stored candidate. The message is tried again on its schedule; if it keeps failing, contact support.";
export const unexpectedFaultReason =
  "Not sent yet: the try failed on our side before its request was made. The message is tried again on its schedule; if it keeps failing, contact support.";
