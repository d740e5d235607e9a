/**
 * Whether a webhook is being held back by its rate limit, for its page: it
 * has a limit, and more of its messages are due (not being sent) than its
 * pace lets a claim take now, counted as the claim counts (claim.ts, with
 * its one second of burst).
 */
import type postgres from "postgres";

export async function webhooksHeldBack(sql: postgres.Sql, webhookIds: string[]): Promise<Set<string>> {
  if (webhookIds.length === 0) return new Set();
  const rows = await sql<Array<{ webhook_id: string }>>`
    select w.id as webhook_id
    from webhooks w join webhook_send_paces p on p.webhook_id = w.id
    where w.id = any(${webhookIds}::text[]) and w.rate_limit_per_second is not null
      and (select count(*) from webhook_queue q where q.webhook_id = w.id and q.state <> 'held' and q.due_at <= now())
        > floor(extract(epoch from now() - greatest(p.sent_until, now() - interval '1 second')) * w.rate_limit_per_second)`;
  return new Set(rows.map((row) => row.webhook_id));
}
