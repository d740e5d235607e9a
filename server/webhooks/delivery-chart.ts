/** Messages per hour (UTC hours, whatever the database's time zone) by their current state, for a webhook's page. */
import type postgres from "postgres";
import { type ChartRange, chartRanges } from "./chart-ranges";

export type ChartBucket = { hour: string; succeeded: number; failed: number; waiting: number };

const hourMs = 3600_000;

/**
 * One bucket per hour, oldest first, the current (partial) hour last; empty
 * hours are zeros. The range is read once, through the log's index in each
 * day of the log (a message's day is its event's, not its creation's, so
 * every day may hold some), and counted by hour.
 */
export function deliveryChartQuery(sql: postgres.Sql, companyId: string, webhookId: string, range: ChartRange, now: Date) {
  const lastHour = Math.floor(now.getTime() / hourMs) * hourMs;
  const from = new Date(lastHour - (chartRanges[range] - 1) * hourMs);
  const to = new Date(lastHour + hourMs);
  return sql<Array<{ hour: Date; succeeded: number; failed: number; waiting: number }>>`
    with counted as (
      select date_trunc('hour', m.created_at, 'UTC') as hour,
        count(*) filter (where m.status = 'succeeded') as succeeded,
        count(*) filter (where m.status = 'failed') as failed,
        count(*) filter (where m.status = 'pending') as waiting
      from webhook_messages m
      where m.company_id = ${companyId} and m.webhook_id = ${webhookId} and m.created_at >= ${from} and m.created_at < ${to}
      group by 1
    )
    select h.hour, coalesce(c.succeeded, 0)::int as succeeded, coalesce(c.failed, 0)::int as failed, coalesce(c.waiting, 0)::int as waiting
    from generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 hour', interval '1 hour') as h(hour)
    left join counted c on c.hour = h.hour
    order by h.hour`;
}

export async function deliveryChart(sql: postgres.Sql, companyId: string, webhookId: string, range: ChartRange, now: Date): Promise<ChartBucket[]> {
  const rows = await deliveryChartQuery(sql, companyId, webhookId, range, now);
  return rows.map((row) => ({ hour: row.hour.toISOString(), succeeded: row.succeeded, failed: row.failed, waiting: row.waiting }));
}
