/** Messages per hour (UTC hours, whatever the database's time zone) by their current state, for a webhook's page. */
import type postgres from "postgres";
import { type ChartRange, chartRanges } from "./chart-ranges";

export type ChartBucket = { hour: string; succeeded: number; failed: number; waiting: number };

/** One bucket per hour, oldest first, the current (partial) hour last; empty hours are zeros. */
export async function deliveryChart(sql: postgres.Sql, companyId: string, webhookId: string, range: ChartRange, now: Date): Promise<ChartBucket[]> {
  const hours = chartRanges[range];
  const rows = await sql<Array<{ hour: Date; succeeded: number; failed: number; waiting: number }>>`
    with bounds as (select date_trunc('hour', ${now}::timestamptz, 'UTC') as last_hour)
    select h.hour,
      count(m.id) filter (where m.status = 'succeeded')::int as succeeded,
      count(m.id) filter (where m.status = 'failed')::int as failed,
      count(m.id) filter (where m.status = 'pending')::int as waiting
    from bounds, generate_series(bounds.last_hour - make_interval(hours => ${hours - 1}), bounds.last_hour, interval '1 hour') as h(hour)
    left join webhook_messages m
      on m.company_id = ${companyId} and m.webhook_id = ${webhookId}
     and m.created_at >= h.hour and m.created_at < h.hour + interval '1 hour'
    group by h.hour
    order by h.hour`;
  return rows.map((row) => ({ hour: row.hour.toISOString(), succeeded: row.succeeded, failed: row.failed, waiting: row.waiting }));
}
