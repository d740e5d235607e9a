/**
 * SQL that writes JSON text byte for byte as the API's Node path writes it
 * (`JSON.stringify` of the objects after zod's output parse): compact, keys in
 * the schema's order, `null` for missing values, dates as
 * `Date.prototype.toISOString()` gives them (UTC, milliseconds, `Z`).
 *
 * PostgreSQL's own json builders put spaces after `:` and `,`, and jsonb keeps
 * its keys sorted its own way, so objects are written here piece by piece;
 * `to_json(text)` escapes a string exactly as `JSON.stringify` does (the
 * same six short escapes, `\u00xx` in lowercase for the other control
 * characters, nothing else escaped). tests/api/json-text.test.ts compares the
 * two paths over every kind of candidate and event.
 */
import type postgres from "postgres";

type Fragment = postgres.Fragment;

/** A string, or `null`. */
export const jsonString = (sql: postgres.Sql, value: Fragment) => sql`coalesce(to_json((${value})::text)::text, 'null')`;

/** A whole number, or `null`. */
export const jsonInteger = (sql: postgres.Sql, value: Fragment) => sql`coalesce((${value})::text, 'null')`;

/** A timestamptz as `toISOString()` writes it (a JS Date keeps milliseconds: the microseconds are cut, not rounded), or `null`. */
export const jsonTime = (sql: postgres.Sql, value: Fragment) =>
  sql`coalesce('"' || to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;

/** The ISO text of a timestamptz (no quotes), as a cursor position keeps it. */
export const isoText = (sql: postgres.Sql, value: Fragment) => sql`to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A jsonb array of strings. */
export const jsonStringArray = (sql: postgres.Sql, value: Fragment) => sql`(
  select '[' || coalesce(string_agg(to_json(s.value)::text, ',' order by s.ordinality), '') || ']'
  from jsonb_array_elements_text(${value}) with ordinality s)`;

/**
 * A jsonb object of whole numbers. A JS object lists integer-like keys
 * ("0" to "4294967294" without leading zeros) first, ascending, then the others
 * in the order they came (jsonb's order, as parsed from its text).
 */
export const jsonIntegerRecord = (sql: postgres.Sql, value: Fragment) => sql`(
  select '{' || coalesce(string_agg(to_json(s.key)::text || ':' || trim_scale(s.value::text::numeric)::text, ','
    order by case when s.index <= 4294967294 then 0 else 1 end, case when s.index <= 4294967294 then s.index end, s.ordinality), '') || '}'
  from (
    select e.key, e.value, e.ordinality, case when e.key ~ '^(0|[1-9][0-9]{0,9})$' then e.key::bigint end as index
    from jsonb_each(${value}) with ordinality e
  ) s)`;

/** A jsonb array of objects, each written with `keys` in that order (other members dropped, as zod's parse drops them). */
export const jsonObjectArray = (sql: postgres.Sql, value: Fragment, render: (element: Fragment) => Fragment) => sql`(
  select '[' || coalesce(string_agg(${render(sql`s.value`)}, ',' order by s.ordinality), '') || ']'
  from jsonb_array_elements(${value}) with ordinality s)`;

/** A constant piece of JSON text, written into the statement (our own names only, never input). */
const literal = (sql: postgres.Sql, text: string) => sql.unsafe(`'${text.replaceAll("'", "''")}'`);

/** `{"name":value,…}` from pieces that are already JSON text. */
export function jsonObject(sql: postgres.Sql, members: Array<[string, Fragment]>): Fragment {
  let text = literal(sql, "{");
  members.forEach(([name, value], index) => {
    text = sql`${text} || ${literal(sql, `${index > 0 ? "," : ""}${JSON.stringify(name)}:`)} || ${value}`;
  });
  return sql`(${text} || '}')`;
}
