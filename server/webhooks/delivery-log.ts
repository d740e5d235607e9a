/** The delivery log of the last 30 days: messages with their attempts. */
import type postgres from "postgres";
import type { EventType, MessageOrigin, MessageStatus } from "@/db/schema";
import { keysetPage } from "@/server/read/paging";

export const logRetentionDays = 30;

export type LogFilters = {
  status?: MessageStatus;
  eventType?: string;
  candidateId?: string;
  from?: Date;
  to?: Date;
  /** The createdAt and id of the last message of the previous page. */
  before?: { createdAt: string; id: string };
  limit: number;
};

type MessageRow = {
  id: string;
  webhook_id: string;
  origin: MessageOrigin;
  event_id: string;
  event_type: EventType;
  candidate_id: string | null;
  is_test: boolean;
  status: MessageStatus;
  attempt_count: number;
  next_attempt_at: Date;
  created_at: Date;
  completed_at: Date | null;
  failure_reason: string | null;
};

const messageColumns = (sql: postgres.Sql) =>
  sql`id, webhook_id, origin, event_id, event_type, candidate_id, is_test, status, attempt_count, next_attempt_at, created_at, completed_at, failure_reason`;

export async function listMessages(sql: postgres.Sql, companyId: string, webhookId: string, filters: LogFilters, now: Date) {
  const rows = await sql<MessageRow[]>`
    select ${messageColumns(sql)}
    from webhook_messages
    where company_id = ${companyId} and webhook_id = ${webhookId}
      and created_at >= ${now}::timestamptz - make_interval(days => ${logRetentionDays})
      ${filters.status ? sql`and status = ${filters.status}` : sql``}
      ${filters.eventType ? sql`and event_type = ${filters.eventType}` : sql``}
      ${filters.candidateId ? sql`and candidate_id = ${filters.candidateId}` : sql``}
      ${filters.from ? sql`and created_at >= ${filters.from}` : sql``}
      ${filters.to ? sql`and created_at < ${filters.to}` : sql``}
      ${filters.before ? sql`and (created_at, id) < (${filters.before.createdAt}::timestamptz, ${filters.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filters.limit + 1}`;
  const { page, next } = keysetPage(rows, filters.limit, (row) => ({ createdAt: row.created_at.toISOString(), id: row.id }));
  return { messages: page, next };
}

export async function getMessage(sql: postgres.Sql, companyId: string, messageId: string): Promise<MessageRow | undefined> {
  const [row] = await sql<MessageRow[]>`select ${messageColumns(sql)} from webhook_messages where id = ${messageId} and company_id = ${companyId}`;
  return row;
}

export async function listAttempts(sql: postgres.Sql, companyId: string, messageId: string) {
  return sql<
    Array<{
      id: string;
      attempt: number;
      url: string;
      started_at: Date;
      duration_ms: number;
      request_headers: Record<string, string>;
      response_status: number | null;
      response_headers: Record<string, string> | null;
      response_body: string | null;
      succeeded: boolean;
      error_class: string | null;
      error_message: string | null;
    }>
  >`
    select a.id, a.attempt, a.url, a.started_at, a.duration_ms, a.request_headers, a.response_status,
      a.response_headers, a.response_body, a.succeeded, a.error_class, a.error_message
    from webhook_attempts a join webhook_messages m on m.id = a.message_id
    where a.message_id = ${messageId} and m.company_id = ${companyId}
    order by a.attempt, a.started_at`;
}
