/**
 * Keyset pages: a query fetches `limit + 1` rows; the extra row only tells
 * that another page follows, which starts after the page's last row.
 */
export function keysetPage<Row, Position>(rows: Row[], limit: number, positionOf: (row: Row) => Position) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last ? positionOf(last) : null };
}
