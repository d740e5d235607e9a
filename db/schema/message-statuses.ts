/** A webhook message's states. Plain data, so the settings pages can import it too. */
export const messageStatuses = ["pending", "succeeded", "failed"] as const;
export type MessageStatus = (typeof messageStatuses)[number];
