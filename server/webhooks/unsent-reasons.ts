/** What the delivery log says of a message that ended without reaching the receiver, through no fault of the receiver's. */
export const eventGoneReason = "Not sent: its event or candidate no longer exists (events are kept for 30 days).";
export const webhookOffReason = "Not sent: the webhook was turned off. It can be resent once the webhook is on.";
