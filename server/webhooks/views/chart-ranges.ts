/**
 * The windows a webhook's figures cover, in whole hours (plain data, so the
 * page's schema can import it): the current hour and the 23 (or 167) before
 * it. The chart draws one bar per hour of a window, and the success rates
 * count the same tries over the same window, so the two always agree.
 */
export const chartRanges = { "24h": 24, "7d": 7 * 24 } as const;
export type ChartRange = keyof typeof chartRanges;

const hourMs = 3600_000;

/** From the start of the window's first hour to the end of the current one. */
export function chartWindow(range: ChartRange, now: Date) {
  const lastHour = Math.floor(now.getTime() / hourMs) * hourMs;
  return { from: new Date(lastHour - (chartRanges[range] - 1) * hourMs), to: new Date(lastHour + hourMs) };
}
