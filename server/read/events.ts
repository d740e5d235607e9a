/**
 * The change history (spec 4.2 rules 9 and 10). Events are read in
 * (tx_id, seq) order and only from transactions older than every transaction
 * still running, taken from the same snapshot as the rows: an event committed
 * late by a transaction that started early can never fall behind a cursor.
 */
import type postgres from "postgres";
import type { EventType, StatusChange } from "@/db/schema";
import { type CompanyRef, candidateJson, candidateRowColumns, getCandidatesById } from "./candidates";
import { countLiteral, jsonObject, jsonString, jsonTime } from "./json-text";

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

/** The company's events after `after` and below the horizon `xmin`, in history order, `limit + 1` of them. */
function eventRows(sql: postgres.Sql, company: CompanyRef, xmin: postgres.Fragment, options: EventListOptions) {
  return sql`
    select e.id, e.type, e.created_at, e.change, e.candidate_id, e.tx_id::text as tx, e.seq::text as seq
    from events e
    where e.company_id = ${company}
      and e.tx_id < ${xmin}
      and e.created_at >= now() - interval '30 days'
      ${options.types ? sql`and e.type in ${sql(options.types)}` : sql``}
      ${options.interviewId ? sql`and e.interview_id = ${options.interviewId}` : sql``}
      ${options.after ? sql`and (e.tx_id, e.seq) > (${options.after.tx}::bigint, ${options.after.seq}::bigint)` : sql``}
    order by e.tx_id, e.seq
    limit ${sql.unsafe(countLiteral(options.limit + 1))}`;
}

export function eventListQuery(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  return sql<EventRow[]>`
    with horizon as materialized (
      select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as xmin
    )
    select h.xmin::text as horizon, e.*
    from horizon h left join lateral (${eventRows(sql, companyId, sql`h.xmin`, options)}) e on true`;
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

/** Where the next call starts (rule 10): after the page, or at the horizon when nothing more is waiting and nothing newer was seen. */
export function nextEventPosition(horizon: EventPosition, lastSeen: EventPosition | undefined, hasMore: boolean): EventPosition {
  return hasMore ? lastSeen! : lastSeen && comparePositions(lastSeen, horizon) > 0 ? lastSeen : horizon;
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
  const next = nextEventPosition(horizon, lastSeen, hasMore);

  const candidates = await getCandidatesById(sql, companyId, [...new Set(page.map((row) => row.candidate_id))]);
  return {
    events: page.map((row) => renderEvent({ ...row, id: row.id! }, candidates.get(row.candidate_id)!)),
    next,
    hasMore,
  };
}

/** The Event object (as `renderEvent` gives it for the history) as the SQL text of a JSON text expression, from an events row `e` and its candidate's row `r`. */
const eventJsonText = (candidate: string) => {
  const change = jsonObject([
    ["from", jsonString("e.change->>'from'")],
    ["to", jsonString("e.change->>'to'")],
    [
      "by",
      jsonObject([
        ["type", jsonString("e.change->'by'->>'type'")],
        ["name", jsonString("e.change->'by'->>'name'")],
      ]),
    ],
  ]);
  return jsonObject([
    ["id", jsonString("e.id")],
    ["type", jsonString("e.type")],
    ["created_at", jsonTime("e.created_at")],
    ["api_version", `'"v1"'`],
    ["test", "'false'"],
    ["change", `case when e.change is null or jsonb_typeof(e.change) = 'null' then 'null' else ${change} end`],
    ["candidate", `coalesce(${candidate}, 'null')`],
  ]);
};

const builtEventJson = new Map<string, string>();

/** The SQL text of an event's JSON (as `renderEvent` gives it) from an events row `e` and its candidate's row `r` of `candidateRowColumnList`; built once. */
export function eventJson() {
  const candidate = candidateJson();
  let text = builtEventJson.get(candidate);
  if (!text) {
    text = eventJsonText(candidate);
    builtEventJson.set(candidate, text);
  }
  return text;
}

/**
 * One page of the history as JSON text, in one row: `items` (the JSON array
 * of the first `limit` events with their candidates' latest data), `has_more`,
 * the page's last position (`last_tx`, `last_seq`) and the snapshot horizon,
 * all from the statement's one snapshot, so the no-skip rule holds as in `listEvents`.
 */
export function eventPageJson(sql: postgres.Sql, company: CompanyRef, options: EventListOptions) {
  const pageSize = sql.unsafe(countLiteral(options.limit));
  return sql`
    with horizon as materialized (
      select (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as xmin
    )
    select min(h.xmin)::text as horizon,
      count(e.id) > ${pageSize} as has_more,
      '[' || coalesce(string_agg(${sql.unsafe(eventJson())}, ',' order by e.n) filter (where e.n <= ${pageSize}), '') || ']' as items,
      max(e.tx) filter (where e.n = least(e.found, ${pageSize})) as last_tx,
      max(e.seq) filter (where e.n = least(e.found, ${pageSize})) as last_seq
    from horizon h
    left join lateral (
      select l.*, row_number() over () as n, count(*) over () as found from (${eventRows(sql, company, sql`h.xmin`, options)}) l
    ) e on true
    left join lateral (
      select ${candidateRowColumns(sql)}
      from candidates c join interviews i on i.id = c.interview_id
      where e.n <= ${pageSize} and c.id = e.candidate_id and c.company_id = ${company} and not c.is_preview
    ) r on true`;
}

export type EventPageJson = { horizon: string; has_more: boolean; items: string; last_tx: string | null; last_seq: string | null };

/** `next_cursor`'s position for a page from `eventPageJson`. */
export function eventPageNext(page: EventPageJson, after: EventPosition | undefined): EventPosition {
  const lastSeen = page.last_tx !== null ? { tx: page.last_tx, seq: page.last_seq! } : after;
  return nextEventPosition({ tx: page.horizon, seq: "0" }, lastSeen, page.has_more);
}
