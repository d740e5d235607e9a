/** The webhook event types (spec 6). Plain data, so the settings pages can import it too. */
export const eventTypes = ["candidate.submitted", "candidate.scored", "candidate.ready", "candidate.status_changed"] as const;
export type EventType = (typeof eventTypes)[number];

/**
 * The types an attempt produces at most once (a unique index holds it). A new
 * type is repeatable unless it is listed here.
 */
export const oncePerAttemptEventTypes = ["candidate.submitted", "candidate.scored", "candidate.ready"] as const satisfies readonly EventType[];
