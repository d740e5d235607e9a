/**
 * Statistics that keep up with a burst. The worker plans its hot statements
 * once per connection (db/prepared.ts), from the statistics of that moment,
 * and keeps the plan until a table's statistics change. A table that looked
 * empty then (the ready set between bursts, a day of the log made ahead, or
 * any of them analyzed while empty by autovacuum or a `vacuumdb --analyze`)
 * is planned as having no rows, and once a burst fills it every plan scans
 * it whole. Measured, draining 20,000 events: a day of the log planned empty
 * made the fan-out of 1,000 events take 0.5 to 3 s instead of 55 ms; the
 * ready set and the chain rows planned empty made the claim take 17 ms
 * instead of 0.5 and readying chains 25 ms instead of 0.3. Autovacuum
 * analyzes a grown table at its next round, a minute by default, which a
 * burst outlasts.
 *
 * So the writer of a burst (the fan-out) analyzes, every `every` rows it
 * writes, the tables that have doubled since their statistics were taken:
 * ANALYZE replaces their statistics, and with them every connection's plans
 * over them. The size on disk is read, exact at once (the cumulative count
 * of changed rows reaches other sessions up to a second late); doubling,
 * from `floorPages`, bounds the runs to about log2(pages) per table.
 * SKIP_LOCKED leaves a table that autovacuum is analyzing now to it.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";

/** A table is analyzed again once it has this many pages (64 kB, about 250 messages) and twice as many as its statistics counted. */
const floorPages = 8;

/**
 * Analyzes the tables among `tables` (a partitioned one: each of its
 * partitions) that have doubled since their statistics were taken; returns
 * their names.
 */
export async function analyzeGrownTables(db: Database, tables: string[]): Promise<string[]> {
  const named = sql`array[${sql.join(
    tables.map((table) => sql`${table}::regclass`),
    sql`, `,
  )}]`;
  const rows = await db.execute<{ name: string }>(sql`
    select c.oid::regclass::text as name from pg_class c
    where c.relkind = 'r'
      and (c.oid = any(${named}) or exists (select from pg_inherits h where h.inhrelid = c.oid and h.inhparent = any(${named})))
      and pg_relation_size(c.oid) / current_setting('block_size')::int >= greatest(${floorPages}, 2 * c.relpages)`);
  const grown = [...rows].map((row) => row.name);
  if (grown.length > 0) await db.execute(sql.raw(`analyze (skip_locked) ${grown.join(", ")}`));
  return grown;
}

/**
 * Counts the rows a writer adds to `tables` and, each time `every` more have
 * been added, analyzes those that have grown. One per worker process (the
 * fan-out task's), so a burst is seen whether it comes as one company's
 * batches of 1,000 or as many companies' few rows each.
 */
export function grownTablesWatch(db: Database, tables: string[], every = 200) {
  let sinceCheck = 0;
  return {
    async added(rows: number): Promise<string[]> {
      sinceCheck += rows;
      if (sinceCheck < every) return [];
      sinceCheck = 0;
      return analyzeGrownTables(db, tables);
    },
  };
}
