/**
 * Keyset pages: a query fetches `limit + 1` rows; the extra row only tells
 * that another page follows, which starts after the page's last row.
 */
export function keysetPage<Row, Position>(rows: Row[], limit: number, positionOf: (row: Row) => Position) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last ? positionOf(last) : null };
}

/**
 * A page size written into the statement rather than sent as a parameter: with
 * the limit known, PostgreSQL plans a prepared statement once and keeps that
 * plan (as a parameter it plans the page again on every request). Only whole
 * numbers get here (the API's `limit` is checked digits).
 */
export function countLiteral(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`Not a count: ${value}`);
  return String(value);
}
