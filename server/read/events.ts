/**
 * The change history (spec 4.2 rules 9 and 10). Events are read in
 * (tx_id, seq) order after a position, and the next position is the last
 * event seen: within a company, every event committed later sorts after
 * every event visible now (server/domain/history-lock.ts), so nothing can
 * fall behind a cursor and no horizon is needed.
 */
import type postgres from "postgres";
import type { EventType, StatusChange } from "@/db/schema";
import { type CompanyRef, candidateJson, candidateRowColumns, getCandidatesById } from "./candidates";
import { countLiteral, jsonObject, jsonString, jsonTime } from "./json-text";

export type EventPosition = { tx: string; seq: string };

type EventRow = {
  tip_tx: string | null;
  tip_seq: string | null;
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

/** The events of the company (of one interview when asked) in its last 30 days, the index's predicates of every read here. */
const scopeOf = (sql: postgres.Sql, company: CompanyRef, options: EventListOptions) => sql`
  e.company_id = ${company}
  and e.created_at >= now() - interval '30 days'
  ${options.interviewId ? sql`and e.interview_id = ${options.interviewId}` : sql``}`;

/** The company's events after `after`, in history order, `limit + 1` of them. */
function eventRows(sql: postgres.Sql, company: CompanyRef, options: EventListOptions) {
  return sql`
    select e.id, e.type, e.created_at, e.change, e.candidate_id, e.tx_id::text as tx, e.seq::text as seq
    from events e
    where ${scopeOf(sql, company, options)}
      ${options.types ? sql`and e.type in ${sql(options.types)}` : sql``}
      ${options.after ? sql`and (e.tx_id, e.seq) > (${options.after.tx}::bigint, ${options.after.seq}::bigint)` : sql``}
    order by e.tx_id, e.seq
    limit ${sql.unsafe(countLiteral(options.limit + 1))}`;
}

/**
 * One row: the position of the company's last event, whatever its type or
 * interview (`tx`, `seq`; null when there is none, or when the read asks for
 * no type and no interview, since then the page's last event is that
 * position). A filtered read that is caught up moves its cursor there, past
 * events it does not want, instead of reading them again on every call; an
 * empty page's cursor is so the history's current end ("from now on", as
 * clients find it). Any event committed later sorts after it (history-lock.ts).
 */
function tipOf(sql: postgres.Sql, company: CompanyRef, options: EventListOptions) {
  if (!options.types && !options.interviewId) return sql`select null::text as tx, null::text as seq`;
  return sql`
    select max(l.tx) as tx, max(l.seq) as seq from (
      select e.tx_id::text as tx, e.seq::text as seq from events e
      where ${scopeOf(sql, company, { limit: 1 })}
      order by e.tx_id desc, e.seq desc
      limit 1
    ) l`;
}

export function eventListQuery(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  return sql<EventRow[]>`
    with tip as materialized (${tipOf(sql, companyId, options)})
    select t.tx as tip_tx, t.seq as tip_seq, e.*
    from tip t left join lateral (${eventRows(sql, companyId, options)}) e on true`;
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

/**
 * Where the next call starts (rule 10): after the page's last event; when
 * nothing more is waiting, at the tip of the read's scope if it is further.
 * Any event committed later sorts after both (history-lock.ts).
 */
export function nextEventPosition(lastSeen: EventPosition | undefined, tip: EventPosition | undefined, hasMore: boolean): EventPosition {
  const furthest = !hasMore && tip && (!lastSeen || comparePositions(tip, lastSeen) > 0) ? tip : lastSeen;
  return furthest ?? { tx: "0", seq: "0" };
}

const tipPosition = (tx: string | null, seq: string | null) => (tx !== null && seq !== null ? { tx, seq } : undefined);

export async function listEvents(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  const rows = await eventListQuery(sql, companyId, options);
  const found = rows.filter((row) => row.id !== null);
  const page = found.slice(0, options.limit);
  const hasMore = found.length > options.limit;
  const last = page.at(-1);
  const lastSeen = last ? { tx: last.tx, seq: last.seq } : options.after;
  const next = nextEventPosition(lastSeen, tipPosition(rows[0]!.tip_tx, rows[0]!.tip_seq), hasMore);

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
 * the page's last position (`last_tx`, `last_seq`) and the scope's tip
 * (`tip_tx`, `tip_seq`, as in `eventListQuery`), all from the statement's one
 * snapshot, so the next position is the one `listEvents` gives.
 */
export function eventPageJson(sql: postgres.Sql, company: CompanyRef, options: EventListOptions) {
  const pageSize = sql.unsafe(countLiteral(options.limit));
  return sql`
    with tip as materialized (${tipOf(sql, company, options)})
    select min(t.tx) as tip_tx, min(t.seq) as tip_seq,
      count(e.id) > ${pageSize} as has_more,
      '[' || coalesce(string_agg(${sql.unsafe(eventJson())}, ',' order by e.n) filter (where e.n <= ${pageSize}), '') || ']' as items,
      max(e.tx) filter (where e.n = least(e.found, ${pageSize})) as last_tx,
      max(e.seq) filter (where e.n = least(e.found, ${pageSize})) as last_seq
    from tip t
    left join lateral (
      select l.*, row_number() over () as n, count(*) over () as found from (${eventRows(sql, company, options)}) l
    ) e on true
    left join lateral (
      select ${candidateRowColumns(sql)}
      from candidates c join interviews i on i.id = c.interview_id
      where e.n <= ${pageSize} and c.id = e.candidate_id and c.company_id = ${company} and not c.is_preview
    ) r on true`;
}

export type EventPageJson = {
  tip_tx: string | null;
  tip_seq: string | null;
  has_more: boolean;
  items: string;
  last_tx: string | null;
  last_seq: string | null;
};

/** `next_cursor`'s position for a page from `eventPageJson`. */
export function eventPageNext(page: EventPageJson, after: EventPosition | undefined): EventPosition {
  const lastSeen = page.last_tx !== null ? { tx: page.last_tx, seq: page.last_seq! } : after;
  return nextEventPosition(lastSeen, tipPosition(page.tip_tx, page.tip_seq), page.has_more);
}
