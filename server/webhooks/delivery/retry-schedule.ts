/** Spec 6.2: retries after 1, 5 and 30 minutes, then 2, 6, 12, 24 and 24 hours: 9 tries in all. */
const minute = 60_000;
const hour = 60 * minute;

export const retryDelaysMs = [minute, 5 * minute, 30 * minute, 2 * hour, 6 * hour, 12 * hour, 24 * hour, 24 * hour];
export const maxAttempts = retryDelaysMs.length + 1;

/** The wait before the next try after `attemptsMade` failed tries, or null when none is left. */
export const retryDelayAfter = (attemptsMade: number): number | null => retryDelaysMs[attemptsMade - 1] ?? null;
