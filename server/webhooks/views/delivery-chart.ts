/**
 * Tries per hour (UTC hours, whatever the database's time zone), succeeded
 * and failed, for a webhook's page: the same tries, over the same window,
 * as its success rates (health.ts). Tries, not messages: a message that
 * failed twice and then succeeded is two failed tries and one success, as in
 * the rates; a message ended on our side (webhook turned off, event gone)
 * made no try and is in neither.
 */
import type postgres from "postgres";
import { type ChartRange, chartWindow } from "./chart-ranges";

export type ChartBucket = { hour: string; succeeded: number; failed: number };

/**
 * One bucket per hour, oldest first, the current (partial) hour last; empty
 * hours are zeros. The range is read once, through the tries' index by
 * webhook and start time, and counted by hour.
 */
export function deliveryChartQuery(sql: postgres.Sql, companyId: string, webhookId: string, range: ChartRange, now: Date) {
  const { from, to } = chartWindow(range, now);
  return sql<Array<{ hour: Date; succeeded: number; failed: number }>>`
    with counted as (
      select date_trunc('hour', a.started_at, 'UTC') as hour,
        count(*) filter (where a.succeeded) as succeeded,
        count(*) filter (where not a.succeeded) as failed
      from webhook_attempts a
      where a.webhook_id = ${webhookId} and a.started_at >= ${from} and a.started_at < ${to}
        and exists (select 1 from webhooks w where w.id = ${webhookId} and w.company_id = ${companyId})
      group by 1
    )
    select h.hour, coalesce(c.succeeded, 0)::int as succeeded, coalesce(c.failed, 0)::int as failed
    from generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 hour', interval '1 hour') as h(hour)
    left join counted c on c.hour = h.hour
    order by h.hour`;
}

export async function deliveryChart(sql: postgres.Sql, companyId: string, webhookId: string, range: ChartRange, now: Date): Promise<ChartBucket[]> {
  const rows = await deliveryChartQuery(sql, companyId, webhookId, range, now);
  return rows.map((row) => ({ hour: row.hour.toISOString(), succeeded: row.succeeded, failed: row.failed }));
}
