/**
 * `npm run bench:retention [-- --messages 5000000]`
 *
 * The 30-day retention over a history spread evenly across 35 days, on its
 * own embedded database: the events, their messages to 4 webhooks and one
 * attempt each, seeded with generate_series straight into the partitioned
 * tables. Then the same rows are copied into plain tables shaped as before
 * partitioning (attempts cascading from their message), and retention is run
 * both ways: dropping the expired days (db/partitions.ts, what the hourly job
 * does) and deleting the expired rows one by one (what it did before).
 * Prints the time of each and the tables' sizes before and after; the target
 * is a drop under one second, whatever the number of rows.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createDatabase } from "@/db/client";
import { dropExpiredDays } from "@/db/partitions";
import { logRetentionDays } from "@/server/webhooks/views/delivery-log";
import { benchDatabase, fixed, table } from "./support";

const { values } = parseArgs({ options: { messages: { type: "string", default: "5000000" } } });
const webhookCount = 4;
const messages = Number(values.messages);
const eventCount = Math.ceil(messages / webhookCount);
const spreadDays = 35;
const dayMs = 24 * 3600_000;
const targetSeconds = 1;
const log = (line: string) => process.stdout.write(`${line}\n`);

const database = await benchDatabase();
const handle = createDatabase(database.url);
const db = handle.db;
const now = new Date();
const start = new Date(now.getTime() - spreadDays * dayMs);
const cutoff = new Date(now.getTime() - logRetentionDays * dayMs);

/** Event n's time: the 35 days evenly, oldest first. */
const eventTime = (n: string) => sql.raw(`'${start.toISOString()}'::timestamptz + (${n}::float8 / ${eventCount}) * interval '${spreadDays} days'`);

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { seconds: (performance.now() - started) / 1000, result };
}

/** Total size (heap, indexes, TOAST) of each table given, partitions included, in MB. */
async function sizes(tables: string[]) {
  const rows = await db.execute<{ name: string; mb: number }>(sql`
    select t.name, round(coalesce(
        (select sum(pg_total_relation_size(p.relid)) from pg_partition_tree(t.name::regclass) p where p.isleaf),
        pg_total_relation_size(t.name::regclass)) / 1048576.0, 1)::float8 as mb
    from unnest(${sql.param(tables)}::text[]) as t(name)`);
  return new Map([...rows].map((row) => [row.name, row.mb]));
}

try {
  log(
    `Seeding ${eventCount.toLocaleString("en")} events, ${(eventCount * webhookCount).toLocaleString("en")} messages and as many attempts over ${spreadDays} days…`,
  );
  const seeding = await timed(async () => {
    await db.execute(sql`insert into companies (id, name) values ('co_bench', 'Bench')`);
    await db.execute(sql`insert into interviews (id, company_id, title, language, access_mode) values ('int_bench', 'co_bench', 'Bench', 'en', 'link')`);
    await db.execute(sql`
      insert into candidates (id, company_id, interview_id, attempt, name, email, started_at)
      select 'cand_' || n, 'co_bench', 'int_bench', 1, 'Candidate ' || n, 'c' || n || '@example.com', ${start.toISOString()}::timestamptz
      from generate_series(0, 9999) n`);
    await db.execute(sql`
      insert into webhooks (id, company_id, url, event_types, secret_ciphertext)
      select 'wh_' || w, 'co_bench', 'https://example.com/' || w, '["candidate.status_changed"]', 'x' from generate_series(1, ${webhookCount}) w`);
    await db.execute(sql`
      select history_partition_create(t.parent, t.key, d::date)
      from generate_series(${start.toISOString()}::timestamptz at time zone 'UTC', ${now.toISOString()}::timestamptz at time zone 'UTC', interval '1 day') d,
        (values ('events', 'created_at'), ('webhook_messages', 'history_at'), ('webhook_attempts', 'history_at')) as t(parent, key)`);
    await db.execute(sql`
      insert into events (id, company_id, candidate_id, interview_id, type, change, created_at)
      select 'evt_' || n, 'co_bench', 'cand_' || (n % 10000), 'int_bench', 'candidate.status_changed',
        '{"from": "needs_review", "to": "shortlisted", "by": {"type": "team", "name": "Ana"}}', ${eventTime("n")}
      from generate_series(1, ${eventCount}) n`);
    await db.execute(sql`
      insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, event_tx_id, event_seq, status,
        attempt_count, next_attempt_at, completed_at, created_at, history_at)
      select 'msg_' || w || '_' || n, 'co_bench', 'wh_' || w, 'event', 'evt_' || n, 'candidate.status_changed', 'cand_' || (n % 10000), 1, n, 'succeeded',
        1, ${eventTime("n")}, ${eventTime("n")} + interval '1 second', ${eventTime("n")}, ${eventTime("n")}
      from generate_series(1, ${eventCount}) n, generate_series(1, ${webhookCount}) w`);
    await db.execute(sql`
      insert into webhook_attempts (id, message_id, webhook_id, attempt, url, started_at, duration_ms, request_headers, request_body, request_body_bytes,
        response_status, succeeded, created_at, history_at)
      select 'att_' || w || '_' || n, 'msg_' || w || '_' || n, 'wh_' || w, 1, 'https://example.com/' || w, ${eventTime("n")}, 40,
        '{"content-type": "application/json"}', '{"id": "evt_' || n || '"}', 20, 200, true, ${eventTime("n")}, ${eventTime("n")}
      from generate_series(1, ${eventCount}) n, generate_series(1, ${webhookCount}) w`);
  });
  log(`  ${fixed(seeding.seconds)} s`);

  log("Copying them into plain tables, shaped as before partitioning…");
  const copying = await timed(async () => {
    for (const name of ["events", "webhook_messages", "webhook_attempts"]) {
      await db.execute(sql.raw(`create table ${name}_plain (like ${name} including defaults including indexes)`));
      await db.execute(sql.raw(`insert into ${name}_plain select * from ${name}`));
    }
    await db.execute(sql`alter table webhook_messages_plain add unique (id)`);
    await db.execute(sql`
      alter table webhook_attempts_plain add foreign key (message_id) references webhook_messages_plain (id) on delete cascade`);
    await db.execute(sql`vacuum analyze`);
  });
  log(`  ${fixed(copying.seconds)} s`);

  const partitioned = ["events", "webhook_messages", "webhook_attempts"];
  const plain = partitioned.map((name) => `${name}_plain`);
  const sizesBefore = await sizes([...partitioned, ...plain]);

  const dropping = await timed(() => dropExpiredDays(db, cutoff));
  const deleting = await timed(async () => {
    const [removed] = await db.execute<{ messages: number; events: number }>(sql`
      with messages as (
        delete from webhook_messages_plain where created_at < ${cutoff.toISOString()}::timestamptz and status in ('succeeded', 'failed') returning 1
      ), events as (
        delete from events_plain where created_at < ${cutoff.toISOString()}::timestamptz returning 1
      )
      select (select count(*)::int from messages) as messages, (select count(*)::int from events) as events`);
    return removed!;
  });
  const sizesAfter = await sizes([...partitioned, ...plain]);
  const [left] = await db.execute<Record<string, number>>(sql`
    select (select count(*)::int from webhook_messages) as partitioned, (select count(*)::int from webhook_messages_plain) as plain`);

  log("");
  log(
    table([
      ["retention run", "seconds", "removed", "messages left"],
      ["drop expired days", fixed(dropping.seconds, 3), `${dropping.result.dropped.length} days × 3 tables`, left!.partitioned!.toLocaleString("en")],
      [
        "delete row by row",
        fixed(deleting.seconds, 3),
        `${deleting.result.messages.toLocaleString("en")} messages (and their attempts), ${deleting.result.events.toLocaleString("en")} events`,
        left!.plain!.toLocaleString("en"),
      ],
    ]),
  );
  log("");
  log(
    table([
      ["table", "MB before", "MB after"],
      ...[...partitioned, ...plain].map((name) => [name, String(sizesBefore.get(name)), String(sizesAfter.get(name))]),
    ]),
  );
  log("");
  log(
    `Of ${(eventCount * webhookCount).toLocaleString("en")} messages: a day goes whole once every row of it is past the 30 days, so a dropped history keeps 30 to 31 days where the row-by-row delete keeps exactly 30. Deleted rows leave their space to vacuum; dropped days give it back at once.`,
  );
  if (dropping.result.left.length > 0) log(`days kept: ${JSON.stringify(dropping.result.left)}`);
  log(`target: the drop under ${targetSeconds} s: ${dropping.seconds < targetSeconds ? "PASS" : "MISS"} (${fixed(dropping.seconds, 3)} s)`);
} finally {
  await handle.close();
  await database.stop();
}
