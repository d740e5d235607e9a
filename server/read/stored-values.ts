/**
 * What PostgreSQL can hold, for inputs checked before they reach SQL (the
 * API's query parameters, the settings' inputs): text without NUL, and
 * instants within years 1 to 9999. Pure, so forms can check with it too.
 */

/** PostgreSQL text cannot hold NUL, so no stored id or name has one. */
export const holdsNoNul = (text: string) => !text.includes("\0");

const earliestStorable = "0001-01-01T00:00:00Z";
const latestStorable = "9999-12-31T23:59:59.999999Z";

/**
 * A checked date-time as the same instant in UTC, for SQL. RFC 3339 allows
 * more than PostgreSQL's timestamptz input takes (year 0000, and offsets past
 * ±15:59 on PostgreSQL 15), so the offset is applied here, keeping the
 * fraction as written. An instant outside years 1 to 9999 becomes the nearest
 * of those bounds: as a filter it selects the same rows, all or none.
 */
export function utcDateTime(value: string): string {
  const fraction = /\.\d+/.exec(value)?.[0] ?? "";
  const wholeSeconds = Date.parse(value.replace(fraction, ""));
  if (wholeSeconds < Date.parse(earliestStorable)) return earliestStorable;
  if (wholeSeconds > Date.parse(latestStorable)) return latestStorable;
  return `${new Date(wholeSeconds).toISOString().slice(0, 19)}${fraction}Z`;
}

/** SQL for the ISO text of a timestamptz column (no quotes), as `toISOString()` writes it: UTC, milliseconds, `Z`. */
export const isoText = (column: string) => `to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Text matched literally inside a `like` pattern: `_` and `%` are wildcards there, and `\` escapes. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, "\\$&");
