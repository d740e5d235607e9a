/** The delivery chart's ranges in hours; plain data, so the page's schema can import it. */
export const chartRanges = { "24h": 24, "7d": 7 * 24 } as const;
export type ChartRange = keyof typeof chartRanges;
