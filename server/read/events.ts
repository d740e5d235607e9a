/**
 * The change history (spec 4.2 rules 9 and 10). Events are read in
 * (tx_id, seq) order and only from transactions older than every transaction
 * still running, taken from the same snapshot as the rows: an event committed
 * late by a transaction that started early can never fall behind a cursor.
 */
import type postgres from "postgres";
import type { EventType, StatusChange } from "@/db/schema";
import { getCandidatesById } from "./candidates";

export type EventPosition = { tx: string; seq: string };

type EventRow = {
  horizon: string;
  id: string | null;
  type: EventType;
  created_at: Date;
  change: StatusChange | null;
  candidate_id: string;
  tx: string;
  seq: string;
};

const comparePositions = (a: EventPosition, b: EventPosition) =>
  BigInt(a.tx) === BigInt(b.tx) ? Number(BigInt(a.seq) - BigInt(b.seq)) : BigInt(a.tx) < BigInt(b.tx) ? -1 : 1;

type EventListOptions = { types?: EventType[]; interviewId?: string; limit: number; after?: EventPosition };

export function eventListQuery(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  return sql<EventRow[]>`
    with horizon as materialized (
      select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as xmin
    )
    select h.xmin::text as horizon, e.*
    from horizon h left join lateral (
      select e.id, e.type, e.created_at, e.change, e.candidate_id, e.tx_id::text as tx, e.seq::text as seq
      from events e
      where e.company_id = ${companyId}
        and e.tx_id < h.xmin
        and e.created_at >= now() - interval '30 days'
        ${options.types ? sql`and e.type in ${sql(options.types)}` : sql``}
        ${options.interviewId ? sql`and e.interview_id = ${options.interviewId}` : sql``}
        ${options.after ? sql`and (e.tx_id, e.seq) > (${options.after.tx}::bigint, ${options.after.seq}::bigint)` : sql``}
      order by e.tx_id, e.seq
      limit ${options.limit + 1}
    ) e on true`;
}

/** The Event shape (spec 2.9), built the one way: for the history, webhook bodies and samples alike. */
export function renderEvent<Candidate>(
  event: { id: string; type: EventType; created_at: Date; change: StatusChange | null },
  candidate: Candidate,
  options: { test?: boolean } = {},
) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    api_version: "v1" as const,
    test: options.test ?? false,
    change: event.change,
    candidate,
  };
}

export async function listEvents(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  const rows = await eventListQuery(sql, companyId, options);
  const found = rows.filter((row) => row.id !== null);
  const page = found.slice(0, options.limit);
  const hasMore = found.length > options.limit;
  // With nothing more to return now, everything below the horizon has been
  // seen: the next call can start there, past events that did not match.
  const horizon: EventPosition = { tx: rows[0]!.horizon, seq: "0" };
  const last = page.at(-1);
  const lastSeen = last ? { tx: last.tx, seq: last.seq } : options.after;
  const next = hasMore ? lastSeen! : lastSeen && comparePositions(lastSeen, horizon) > 0 ? lastSeen : horizon;

  const candidates = await getCandidatesById(sql, companyId, [...new Set(page.map((row) => row.candidate_id))]);
  return {
    events: page.map((row) => renderEvent({ ...row, id: row.id! }, candidates.get(row.candidate_id)!)),
    next,
    hasMore,
  };
}
