/** How a webhook is doing, computed in one place for the settings pages, the CLI and the tests. */
import type postgres from "postgres";

export type WebhookHealth = {
  state: "healthy" | "failing" | "disabled";
  successRate24h: number | null;
  successRate7d: number | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  waitingMessages: number;
};

export async function webhookHealth(sql: postgres.Sql, companyId: string, webhookIds: string[], now: Date): Promise<Map<string, WebhookHealth>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await sql<
    Array<{
      id: string;
      enabled: boolean;
      failing_since: Date | null;
      last_success_at: Date | null;
      last_failure_at: Date | null;
      ok_24h: number;
      all_24h: number;
      ok_7d: number;
      all_7d: number;
      waiting: number;
    }>
  >`
    select w.id, w.enabled, w.failing_since, w.last_success_at, w.last_failure_at,
      coalesce(a.ok_24h, 0)::int as ok_24h, coalesce(a.all_24h, 0)::int as all_24h,
      coalesce(a.ok_7d, 0)::int as ok_7d, coalesce(a.all_7d, 0)::int as all_7d,
      (select count(*) from webhook_messages m where m.webhook_id = w.id and m.status = 'pending')::int as waiting
    from webhooks w
    left join lateral (
      select
        count(*) filter (where succeeded and started_at >= ${now}::timestamptz - interval '24 hours') as ok_24h,
        count(*) filter (where started_at >= ${now}::timestamptz - interval '24 hours') as all_24h,
        count(*) filter (where succeeded) as ok_7d,
        count(*) as all_7d
      from webhook_attempts where webhook_id = w.id and started_at >= ${now}::timestamptz - interval '7 days'
    ) a on true
    where w.company_id = ${companyId} and w.id in ${sql(webhookIds)}`;
  const rate = (ok: number, all: number) => (all === 0 ? null : Math.round((ok / all) * 1000) / 10);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        state: !row.enabled ? "disabled" : row.failing_since ? "failing" : "healthy",
        successRate24h: rate(row.ok_24h, row.all_24h),
        successRate7d: rate(row.ok_7d, row.all_7d),
        lastSuccessAt: row.last_success_at?.toISOString() ?? null,
        lastFailureAt: row.last_failure_at?.toISOString() ?? null,
        waitingMessages: row.waiting,
      },
    ]),
  );
}
