/**
 * When a run of failures alerts the admins and turns a webhook off (spec 6.2),
 * and the words for those times. Plain data: the settings pages, the emails
 * and the disabled reason all say the same.
 */
const hour = 3_600_000;
const day = 24 * hour;

export const alertAfterMs = day;
export const disableAfterMs = 3 * day;

const inWords = (ms: number) => (ms === day ? "a day" : ms % day === 0 ? `${ms / day} days` : `${ms / hour} hours`);

export const alertAfter = inWords(alertAfterMs);
export const disableAfter = inWords(disableAfterMs);
