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
 *
 * These build SQL text, not postgres.js fragments: the expressions are the
 * same on every request, so callers build them once and put them in a
 * statement with `sql.unsafe` (building a few hundred fragments per request
 * cost more than the whole query). Only our own column names and constants go
 * in; a constant string goes through `sqlString`.
 */

/** A string constant, quoted for SQL (standard_conforming_strings: only `'` is special). */
export const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** A string, or `null`. */
export const jsonString = (value: string) => `coalesce(to_json((${value})::text)::text, 'null')`;

/** A whole number, or `null`. */
export const jsonInteger = (value: string) => `coalesce((${value})::text, 'null')`;

/** The ISO text of a timestamptz (no quotes), as `toISOString()` writes it: a JS Date keeps milliseconds, the microseconds are cut, not rounded. */
export const isoText = (value: string) => `to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A timestamptz as `toISOString()` writes it, or `null`. */
export const jsonTime = (value: string) => `coalesce('"' || ${isoText(value)} || '"', 'null')`;

/** A jsonb array of strings. */
export const jsonStringArray = (value: string) => `(
  select '[' || coalesce(string_agg(to_json(s.value)::text, ',' order by s.ordinality), '') || ']'
  from jsonb_array_elements_text(${value}) with ordinality s)`;

/**
 * A jsonb object of whole numbers. A JS object lists integer-like keys
 * ("0" to "4294967294" without leading zeros) first, ascending, then the others
 * in the order they came (jsonb's order, as parsed from its text).
 */
export const jsonIntegerRecord = (value: string) => `(
  select '{' || coalesce(string_agg(to_json(s.key)::text || ':' || trim_scale(s.value::text::numeric)::text, ','
    order by case when s.index <= 4294967294 then 0 else 1 end, case when s.index <= 4294967294 then s.index end, s.ordinality), '') || '}'
  from (
    select e.key, e.value, e.ordinality, case when e.key ~ '^(0|[1-9][0-9]{0,9})$' then e.key::bigint end as index
    from jsonb_each(${value}) with ordinality e
  ) s)`;

/** A jsonb array of objects, each written by `render` from its element `s.value`. */
export const jsonObjectArray = (value: string, render: (element: string) => string) => `(
  select '[' || coalesce(string_agg(${render("s.value")}, ',' order by s.ordinality), '') || ']'
  from jsonb_array_elements(${value}) with ordinality s)`;

/** `{"name":value,…}` from pieces that are already JSON text. */
export function jsonObject(members: Array<[string, string]>): string {
  const pieces = members.map(([name, value], index) => `${sqlString(`${index > 0 ? "," : ""}${JSON.stringify(name)}:`)} || ${value}`);
  return `('{' || ${pieces.join(" || ")} || '}')`;
}

/**
 * A page size written into the statement rather than sent as a parameter: with
 * the limit known, PostgreSQL plans a prepared statement once and keeps that
 * plan (as a parameter it plans the page again on every request). Only whole
 * numbers get here (the API's `limit` is checked digits).
 */
export function countLiteral(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`Not a count: ${value}`);
  return String(value);
}
