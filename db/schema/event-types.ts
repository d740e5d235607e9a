/** The webhook event types (spec 6). Plain data, so the settings pages can import it too. */
export const eventTypes = [
  "candidate.submitted",
  "candidate.scored",
  "candidate.ready",
  "candidate.status_changed",
] as const;
export type EventType = (typeof eventTypes)[number];
