/**
 * The change history (spec 4.2 rules 9 and 10). Events are read in
 * (tx_id, seq) order after a position, and the next position is the last
 * event seen: within a company, every event committed later sorts after
 * every event visible now (server/domain/history-lock.ts), so nothing can
 * fall behind a cursor and no horizon is needed.
 */
import type postgres from "postgres";
import { historyRetentionDays } from "@/db/partitions";
import type { EventType, StatusChange } from "@/db/schema";
import { withAppUrl } from "./links";
import { countLiteral } from "./paging";
import { isoText } from "./stored-values";

export type EventPosition = { tx: string; seq: string };

/** An event as a read gives it: its columns and its candidate's stored text. */
export type EventSource = {
  id: string;
  type: EventType;
  created_at: string;
  change: StatusChange | null;
  candidate_json: string | null;
};

const comparePositions = (a: EventPosition, b: EventPosition) =>
  BigInt(a.tx) === BigInt(b.tx) ? Number(BigInt(a.seq) - BigInt(b.seq)) : BigInt(a.tx) < BigInt(b.tx) ? -1 : 1;

type EventListOptions = { types?: EventType[]; interviewId?: string; limit: number; after?: EventPosition };

/** The events of the company (of one interview when asked) in its kept days, the index's predicates of every read here. */
const scopeOf = (sql: postgres.Sql, companyId: string, options: EventListOptions) => sql`
  e.company_id = ${companyId}
  and e.created_at >= now() - make_interval(days => ${historyRetentionDays})
  ${options.interviewId ? sql`and e.interview_id = ${options.interviewId}` : sql``}`;

/** The company's events after `after`, in history order, `limit + 1` of them. */
function eventRows(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  return sql`
    select e.id, e.type, ${sql.unsafe(isoText("e.created_at"))} as created_at, e.change, e.tx_id::text as tx, e.seq::text as seq,
      (select c.api_json from candidates c where c.id = e.candidate_id and c.company_id = e.company_id and not c.is_preview) as candidate_json
    from events e
    where ${scopeOf(sql, companyId, options)}
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
function tipOf(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  if (!options.types && !options.interviewId) return sql`select null::text as tx, null::text as seq`;
  return sql`
    select max(l.tx) as tx, max(l.seq) as seq from (
      select e.tx_id::text as tx, e.seq::text as seq from events e
      where ${scopeOf(sql, companyId, { limit: 1 })}
      order by e.tx_id desc, e.seq desc
      limit 1
    ) l`;
}

/**
 * One page of the history: up to `limit + 1` events with their candidates'
 * stored texts, beside the scope's tip (as `tipOf` gives it), all from the
 * statement's one snapshot. With no event, one row of nulls carries the tip.
 */
export function eventPageQuery(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  return sql<Array<Partial<EventSource & EventPosition> & { tip_tx: string | null; tip_seq: string | null }>>`
    with tip as materialized (${tipOf(sql, companyId, options)})
    select t.tx as tip_tx, t.seq as tip_seq, e.*
    from tip t left join lateral (${eventRows(sql, companyId, options)}) e on true`;
}

/** The Event shape (spec 2.9), built the one way: for the history, webhook bodies and samples alike. */
export function renderEvent<Candidate>(
  event: { id: string; type: EventType; created_at: string; change: StatusChange | null },
  candidate: Candidate,
  options: { test?: boolean } = {},
) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    api_version: "v1" as const,
    test: options.test ?? false,
    // jsonb keeps its own key order: the schema's is written out.
    change: event.change && { from: event.change.from, to: event.change.to, by: { type: event.change.by.type, name: event.change.by.name } },
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

/**
 * An event's JSON text with its candidate's stored text put in as it is, as a
 * webhook body carries it (spec 6.2): the event's four fields are rendered
 * here, the candidate (its last member) was rendered when it changed.
 */
export function eventJsonText(event: Omit<EventSource, "candidate_json">, candidateJson: string, options: { test?: boolean } = {}): string {
  const withoutCandidate = JSON.stringify(renderEvent(event, null, options));
  return `${withoutCandidate.slice(0, -"null}".length)}${withAppUrl(candidateJson)}}`;
}

/** A page of the history and where the next call starts (rule 10). */
export async function readEventPage(sql: postgres.Sql, companyId: string, options: EventListOptions) {
  const rows = await eventPageQuery(sql, companyId, options);
  const found = rows.filter((row) => row.id != null) as Array<EventSource & EventPosition>;
  const page = found.slice(0, options.limit);
  const hasMore = found.length > options.limit;
  const last = page.at(-1);
  const lastSeen = last ? { tx: last.tx, seq: last.seq } : options.after;
  const next = nextEventPosition(lastSeen, tipPosition(rows[0]!.tip_tx, rows[0]!.tip_seq), hasMore);
  return {
    // An event's candidate always exists (a foreign key) and is never a preview.
    events: page.map((row) => renderEvent(row, JSON.parse(withAppUrl(row.candidate_json!)))),
    next,
    hasMore,
  };
}
