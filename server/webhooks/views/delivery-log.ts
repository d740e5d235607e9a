/**
 * The delivery log of the last 30 days: messages with their attempts.
 *
 * The log is partitioned by day of `history_at` (db/partitions.ts), which is
 * a message's event's time (its own creation for a resend or a sample), while
 * the log is shown by `created_at`, newest first; messages created at the
 * same moment (a backfill, a fan-out's batch) in the order they were added,
 * which is the history's (`seq`). The list cannot be narrowed to days by
 * its window: sending past events (backfill.ts) or a fan-out that caught up
 * late creates messages today in an old event's day, and a day is kept past
 * the 30 days while one of its messages still waits. A message's attempts
 * are looked up in its one day (`MessageKey`).
 */
import type postgres from "postgres";
import { historyRetentionDays } from "@/db/partitions";
import type { DeliveryErrorClass, EventType, MessageOrigin, MessageStatus } from "@/db/schema";
import { keysetPage } from "@/server/read/paging";
import { likeLiteral } from "@/server/read/stored-values";

export const logRetentionDays = historyRetentionDays;

/** A search of the log by the start of an event id or of a candidate id. */
export type LogSearch = { field: "event" | "candidate"; prefix: string };

/** Where a page of the log ends: its last message's creation and place among messages created at that moment. */
export type LogPosition = { createdAt: string; seq: string };

export type LogFilters = {
  status?: MessageStatus;
  eventType?: string;
  search?: LogSearch;
  from?: Date;
  to?: Date;
  /** The createdAt and seq of the last message of the previous page. */
  before?: LogPosition;
  limit: number;
};

export type MessageRow = {
  id: string;
  webhook_id: string;
  origin: MessageOrigin;
  event_id: string;
  event_type: EventType;
  candidate_id: string | null;
  /** The candidate's name, when the candidate is the company's and still exists. */
  candidate_name: string | null;
  is_test: boolean;
  status: MessageStatus;
  attempt_count: number;
  next_attempt_at: Date;
  created_at: Date;
  /**
   * When the event happened: its own time (`created_at` in the body), not the
   * message's creation. Null for a resend whose event is gone.
   */
  event_at: Date | null;
  completed_at: Date | null;
  failure_reason: string | null;
  /** The message this one resends. */
  resent_from: string | null;
  /** The newest message that resends this one, and its state. */
  resent_to_id: string | null;
  resent_to_status: MessageStatus | null;
  /** The partition key: the day the message and its attempts are kept in. */
  history_at: Date;
  /** Its place among the messages created at the same moment (bigint as text). */
  seq: string;
};

/** What finds a message in one day of the log: its id and its `history_at` (the primary key). */
export type MessageKey = Pick<MessageRow, "id" | "history_at">;

/** A `like` pattern for ids starting with `prefix`; an id's own underscore (`evt_`) matches only itself. */
export const likePrefix = (prefix: string) => `${likeLiteral(prefix)}%`;

/**
 * When a message's event happened: a message of an event is kept in its
 * event's time (`history_at`); a sample's time is in its body; a resend's
 * event is looked up (in every day: a resend is kept in its own day).
 */
const eventTime = (sql: postgres.Sql) => sql`
  case m.origin
    when 'event' then m.history_at
    when 'sample' then ((m.sample_body #>> '{}')::json ->> 'created_at')::timestamptz
    else (select e.created_at from events e where e.id = m.event_id and e.company_id = m.company_id)
  end`;

/** Messages with their candidate's name, their event's time and their resend links, of one company only. */
const messageSelect = (sql: postgres.Sql) => sql`
  select m.id, m.webhook_id, m.origin, m.event_id, m.event_type, m.candidate_id, c.name as candidate_name, m.is_test, m.status,
    m.attempt_count, m.next_attempt_at, m.created_at, ${eventTime(sql)} as event_at, m.completed_at, m.failure_reason, m.resent_from,
    r.id as resent_to_id, r.status as resent_to_status, m.history_at, m.seq::text as seq
  from webhook_messages m
  left join candidates c on c.id = m.candidate_id and c.company_id = m.company_id
  left join lateral (
    select r.id, r.status from webhook_messages r
    where r.resent_from = m.id and r.company_id = m.company_id
      -- A resend counts from its own creation, after its original's (a day's margin for clocks): only those days are read.
      and r.history_at >= m.created_at - interval '1 day'
    order by r.seq desc limit 1
  ) r on true`;

/**
 * An event-id prefix is matched through both event-id indexes (one for
 * events, one for resends and samples, each partial on `origin`): spelled as
 * two branches, each implies one index's condition, so the planner can use
 * both rather than read the whole log.
 */
function searchCondition(sql: postgres.Sql, search: LogSearch) {
  const pattern = likePrefix(search.prefix);
  return search.field === "event"
    ? sql`and ((m.origin = 'event' and m.event_id like ${pattern}) or (m.origin <> 'event' and m.event_id like ${pattern}))`
    : sql`and m.candidate_id like ${pattern}`;
}

export function messageListQuery(sql: postgres.Sql, companyId: string, webhookId: string, filters: LogFilters, now: Date) {
  return sql<MessageRow[]>`
    ${messageSelect(sql)}
    where m.company_id = ${companyId} and m.webhook_id = ${webhookId}
      and m.created_at >= ${now}::timestamptz - make_interval(days => ${logRetentionDays})
      ${filters.status ? sql`and m.status = ${filters.status}` : sql``}
      ${filters.eventType ? sql`and m.event_type = ${filters.eventType}` : sql``}
      ${filters.search ? searchCondition(sql, filters.search) : sql``}
      ${filters.from ? sql`and m.created_at >= ${filters.from}` : sql``}
      ${filters.to ? sql`and m.created_at < ${filters.to}` : sql``}
      ${
        filters.before
          ? // The first condition is the index's range (it holds creation, not seq); the second breaks the tie.
            sql`and m.created_at <= ${filters.before.createdAt}::timestamptz
              and (m.created_at, m.seq) < (${filters.before.createdAt}::timestamptz, ${filters.before.seq}::bigint)`
          : sql``
      }
    order by m.created_at desc, m.seq desc
    limit ${filters.limit + 1}`;
}

export async function listMessages(sql: postgres.Sql, companyId: string, webhookId: string, filters: LogFilters, now: Date) {
  const rows = await messageListQuery(sql, companyId, webhookId, filters, now);
  const { page, next } = keysetPage(rows, filters.limit, (row): LogPosition => ({ createdAt: row.created_at.toISOString(), seq: row.seq }));
  return { messages: page, next };
}

/** How many messages a company-wide search lists at most (an event has one per webhook, and its resends). */
export const companySearchLimit = 100;

export type CompanyMessageRow = MessageRow & { webhook_name: string | null; webhook_url: string };

/**
 * A search of every webhook's log of one company ("find this event id"):
 * each of the company's webhooks is searched through the same indexes as its
 * own log's search, newest first.
 */
export function companyMessagesQuery(sql: postgres.Sql, companyId: string, search: LogSearch, now: Date) {
  return sql<CompanyMessageRow[]>`
    select l.*, w.name as webhook_name, w.url as webhook_url from (
      ${messageSelect(sql)}
      where m.company_id = ${companyId}
        -- The company's webhooks as one array (an InitPlan), so each day is read through the indexes that lead with the webhook.
        and m.webhook_id = any(array(select w.id from webhooks w where w.company_id = ${companyId}))
        and m.created_at >= ${now}::timestamptz - make_interval(days => ${logRetentionDays})
        ${searchCondition(sql, search)}
      order by m.created_at desc, m.seq desc
      limit ${companySearchLimit}
    ) l join webhooks w on w.id = l.webhook_id and w.company_id = ${companyId}
    order by l.created_at desc, l.seq::bigint desc`;
}

/**
 * One message by its id alone, as the pages link to it: each day's primary
 * key is probed (an id says nothing of its day).
 */
export function messageQuery(sql: postgres.Sql, companyId: string, messageId: string) {
  return sql<MessageRow[]>`${messageSelect(sql)} where m.id = ${messageId} and m.company_id = ${companyId}`;
}

export async function getMessage(sql: postgres.Sql, companyId: string, messageId: string): Promise<MessageRow | undefined> {
  const [row] = await messageQuery(sql, companyId, messageId);
  return row;
}

export type AttemptRow = {
  id: string;
  attempt: number;
  url: string;
  started_at: Date;
  duration_ms: number;
  request_headers: Record<string, string>;
  /** The body sent, its first 64 KiB; null for attempts recorded before bodies were kept. */
  request_body: string | null;
  request_body_bytes: number | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  succeeded: boolean;
  error_class: DeliveryErrorClass | null;
  error_message: string | null;
};

/** A message's attempts, read in its one day: attempts are kept in their message's day (`history_at`). */
export function listAttempts(sql: postgres.Sql, companyId: string, message: MessageKey) {
  return sql<AttemptRow[]>`
    select a.id, a.attempt, a.url, a.started_at, a.duration_ms, a.request_headers, a.request_body, a.request_body_bytes, a.response_status,
      a.response_headers, a.response_body, a.succeeded, a.error_class, a.error_message
    from webhook_attempts a join webhook_messages m on m.id = a.message_id and m.history_at = a.history_at
    where a.message_id = ${message.id} and a.history_at = ${message.history_at} and m.company_id = ${companyId}
    order by a.attempt, a.started_at`;
}
