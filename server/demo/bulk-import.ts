/**
 * Writes many finished or unfinished attempts at once, for benchmarks and
 * large demos (`simulate --bulk`): a few statements per thousands of
 * attempts, where the single path takes several per attempt. What it keeps from the single path:
 *
 * - The same rows. Each attempt arrives whole (candidate row in its final
 *   state, answers, transcript, files); every column of its table is written,
 *   a value the attempt leaves out is null (a column with a default must be
 *   given, since one COPY cannot fall back to a default for some rows only).
 * - The same API JSON: each candidate's text comes from the renderer every
 *   change uses (`candidateJsonText`), from the attempt as given.
 * - The same events. Each attempt's events come from the same pure rules as
 *   single operations (`eventsForChange` from nothing to its final state, by
 *   the system), dated when it was submitted.
 * - The same transactions' shape. One batch is one transaction: its rows, its
 *   events, and one `fan-out-events` job per company with events in it
 *   (`enqueueFanOut`), so the job exists exactly when the events do.
 * - The history's order. Events are read in (tx_id, seq) order. `seq`
 *   follows the order rows are copied: the order attempts are given in, then
 *   the rules' order. `tx_id` is the batch's transaction id, taken first
 *   thing in the transaction right after the companies' history locks
 *   (history-lock.ts; `onTransactionId` says when). Batches of one company
 *   therefore take turns; a caller that gives attempts in time order and
 *   begins each batch only once the previous batch's transaction has its id
 *   gets a history in time order.
 *
 * What it does differently, for speed (one million candidates, about twelve
 * million rows, in minutes):
 *
 * - Rows go in with `COPY … FROM STDIN` (text format) on the transaction's own
 *   connection, one COPY per table per batch, built here as text without the
 *   query builder's per-value work.
 * - Preparing a batch (event drafts, ids, COPY text) is apart from writing it
 *   (`prepareImport`, in parts, then `writeImport`), so a caller can prepare
 *   the next batch while the database writes this one.
 * - The events' `tx_id` is given rather than left to its volatile default
 *   (same value), so COPY can insert them many rows at a time.
 * - The transaction commits asynchronously (`synchronous_commit = off`, for
 *   this transaction only): a crash may lose the last batches written, never
 *   part of one, which a simulator can afford.
 */
import { getTableColumns, getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import { postgresConnectionOf } from "@/db/drizzle-session";
import { candidateAnswers, candidates, events, files, transcriptEntries } from "@/db/schema";
import { eventRow, systemActor } from "@/server/domain/candidate-changes";
import type { CandidateRow } from "@/server/domain/candidate-row";
import type { DomainContext } from "@/server/domain/context";
import { eventsForChange } from "@/server/domain/event-rules";
import { lockCompanyHistory } from "@/server/domain/history-lock";
import { candidateSource } from "@/server/domain/stored-candidates";
import { enqueueFanOut } from "@/server/jobs/queue";
import { type CandidateSource, candidateJsonText } from "@/server/read/candidates";

export type ImportedAttempt = {
  /** Its final state; its `apiJson` is rendered here. */
  candidate: CandidateRow;
  /** What of its interview the candidate's API JSON shows. */
  interview: { title: string; passMark: number | null };
  answers: Array<typeof candidateAnswers.$inferInsert>;
  transcript: Array<typeof transcriptEntries.$inferInsert>;
  files: Array<typeof files.$inferInsert>;
};

/**
 * A batch, or part of one, ready to write: COPY text for each table, always
 * the same tables in the same order (candidates first: every other table
 * refers to them).
 */
export type PreparedImport = {
  copies: Array<{ table: string; columns: string[]; text: string; rows: number }>;
  /** Companies that get events: one fan-out job each. */
  companies: string[];
};

/** Everything about some attempts that needs no database: their events (by the rules), their ids, and the COPY text. */
export function prepareImport(ctx: DomainContext, attempts: ImportedAttempt[]): PreparedImport {
  const eventRows: Array<typeof events.$inferInsert> = [];
  for (const { candidate } of attempts) {
    // The single path appends these when the attempt is submitted.
    if (!candidate.submittedAt) continue;
    for (const draft of eventsForChange(null, candidate, systemActor)) eventRows.push(eventRow(ctx, candidate, draft, candidate.submittedAt));
  }
  return {
    copies: [
      copyOf(
        candidates,
        attempts.map((attempt) => ({ ...attempt.candidate, apiJson: candidateJsonText(sourceOf(attempt)) })),
      ),
      copyOf(
        candidateAnswers,
        attempts.flatMap((attempt) => attempt.answers),
      ),
      copyOf(
        transcriptEntries,
        attempts.flatMap((attempt) => attempt.transcript),
      ),
      copyOf(
        files,
        attempts.flatMap((attempt) => attempt.files),
      ),
      // `seq` is left to its sequence, in copy order; `tx_id` is added when
      // the transaction runs (below).
      copyOf(events, eventRows, ["txId", "seq"]),
    ],
    companies: [...new Set(eventRows.map((row) => row.companyId))],
  };
}

/** An attempt's candidate as the renderer takes it, its extras from the rows given with it. */
function sourceOf({ candidate, interview, answers, files: stored }: ImportedAttempt): CandidateSource {
  return candidateSource(candidate, {
    interview_title: interview.title,
    pass_mark: interview.passMark,
    answers: Object.fromEntries(answers.map((answer) => [answer.questionId, { question: answer.question, answer: answer.answer }])),
    documents: stored
      .filter((file) => file.kind === "document" && !file.deletedAt)
      .map((file) => ({
        id: file.id,
        label: file.label ?? null,
        file_name: file.fileName,
        content_type: file.contentType ?? null,
        size_bytes: file.sizeBytes ?? null,
      })),
  });
}

const eventsTable = getTableName(events);

/**
 * Writes prepared parts in one transaction: table by table, each part's rows
 * in the order given, then the fan-out jobs. `onTransactionId` is called once
 * the transaction holds its companies' history locks and has its id: a batch
 * that must come later in the history may start its own transaction from
 * then on (it waits for those locks).
 */
export async function writeImport(ctx: DomainContext, parts: PreparedImport[], onTransactionId?: () => void) {
  await ctx.db.transaction(async (tx) => {
    // COPY is not in drizzle's vocabulary: it goes on the postgres.js connection the transaction runs on.
    const connection = postgresConnectionOf(tx);
    await connection`set local synchronous_commit = off`;
    await lockCompanyHistory(
      tx,
      parts.flatMap((part) => part.companies),
    );
    // The events' `tx_id` is their transaction's id, exactly what the
    // column's default computes. Given here, it lets COPY insert the events
    // many rows at a time, which a volatile default prevents.
    const [{ txId }] = await connection<[{ txId: string }]>`select (pg_current_xact_id()::text)::bigint::text as "txId"`;
    onTransactionId?.();
    for (let table = 0; table < (parts[0]?.copies.length ?? 0); table++) {
      const copies = parts.map((part) => part.copies[table]!);
      if (copies.every((copy) => copy.rows === 0)) continue;
      const { table: name, columns } = copies[0]!;
      const texts = copies.map(({ text }) => (name === eventsTable ? text.replaceAll("\n", `\t${txId}\n`) : text));
      await copyIn(connection, name, name === eventsTable ? [...columns, "tx_id"] : columns, texts);
    }
    for (const companyId of new Set(parts.flatMap((part) => part.companies))) await enqueueFanOut(tx, companyId);
  });
}

/**
 * Sends one table's rows with COPY and waits until PostgreSQL has taken them.
 * postgres.js (3.4.9) never settles the stream when PostgreSQL refuses the
 * rows after the last one was sent, as it does for a foreign key checked at
 * the end (porsager/postgres#1173). So a query sent right behind the COPY
 * stands guard: it fails when the COPY failed, the transaction being aborted.
 */
async function copyIn(connection: postgres.Sql, table: string, columns: string[], texts: string[]) {
  const stream = await connection`copy ${connection(table)} (${connection(columns)}) from stdin`.writable();
  const finished = new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.once("finish", resolve);
  });
  // Every row handed over before the end: then `end` ends the COPY at once,
  // and the guard can follow it (no query may be sent while a COPY is open).
  for (const text of texts) await new Promise<void>((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
  stream.end();
  const guard = connection`select 1`.catch((error: unknown) => {
    throw new Error(`Bulk import: PostgreSQL refused the rows for ${table} (its log says why).`, { cause: error });
  });
  await Promise.all([finished, guard]);
}

/**
 * COPY text for rows of a table, with every column except `skip` (property
 * names). Values are encoded by the column's type, as the driver would send them.
 */
function copyOf<Table extends PgTable>(table: Table, rows: Array<Table["$inferInsert"]>, skip: string[] = []) {
  const { columns, line } = lineEncoder(table, skip);
  let text = "";
  for (let index = 0; index < rows.length; index++) text += line(rows[index]);
  return { table: getTableName(table), columns, text, rows: rows.length };
}

type LineEncoder = { columns: string[]; line: (row: unknown) => string };
const lineEncoders = new Map<PgTable, LineEncoder>();

/**
 * The function that turns one row into one COPY line, made once per table.
 * It is compiled from the column list so that it reads each property by its
 * name (`row["companyId"]`): reading them through a list of names
 * (`row[name]`) costs several times more over millions of rows.
 */
function lineEncoder(table: PgTable, skip: string[]): LineEncoder {
  const known = lineEncoders.get(table);
  if (known) return known;
  const columns = Object.entries(getTableColumns(table)).filter(([property]) => !skip.includes(property));
  const encoders = columns.map(([, column]) => encoderFor(column.columnType, column.hasDefault ? column.name : null));
  const fields = columns.map(([property], index) => `encoders[${index}](row[${JSON.stringify(property)}])`);
  const line = new Function("encoders", `return (row) => ${fields.join(' + "\\t" + ')} + "\\n";`)(encoders) as LineEncoder["line"];
  const made = { columns: columns.map(([, column]) => column.name), line };
  lineEncoders.set(table, made);
  return made;
}

const nullValue = "\\N";
const special = /[\\\n\r\t]/;
const specials = /[\\\n\r\t]/g;
const escapes: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Text as one COPY field: backslash, newline, carriage return and tab escaped. */
const escapeText = (text: string) => (special.test(text) ? text.replace(specials, (character) => escapes[character]!) : text);

/** Encodes one value of a column of this type; `withDefault` names a column that has a default, which must then be given. */
function encoderFor(columnType: string, withDefault: string | null): (value: unknown) => string {
  const encode = encoderOfType(columnType);
  return (value) => {
    if (value === undefined && withDefault) throw new Error(`Bulk import: ${withDefault} has a default and must be given.`);
    return value === null || value === undefined ? nullValue : encode(value as never);
  };
}

function encoderOfType(columnType: string): (value: never) => string {
  switch (columnType) {
    case "PgText":
      return (value: string) => escapeText(value);
    case "PgInteger":
    case "PgBigInt53":
      return (value: number) => String(value);
    case "PgBoolean":
      return (value: boolean) => (value ? "t" : "f");
    case "PgTimestamp":
      return (value: Date) => value.toISOString();
    case "PgJsonb":
      return (value: unknown) => escapeText(JSON.stringify(value));
    default:
      throw new Error(`Bulk import: no COPY encoding for ${columnType} columns.`);
  }
}
