/**
 * Every process migrates at start (db/migrate.ts): several at once on a new
 * database, and, behind a pooler in transaction mode, on whatever server
 * connection each transaction gets. A pooler hands a connection to another
 * client once its transaction ends, so nothing may be held past one.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type MigrationLockWait, migrateDatabase } from "@/db/migrate";
import journal from "@/db/migrations/meta/_journal.json";

const admin = () => postgres(inject("serverUrl"), { max: 1, onnotice: () => {} });
const made: string[] = [];
const folders: string[] = [];

/** A new, empty database of this test's own. */
async function emptyDatabase(label: string) {
  const name = `migrate_${label}_${process.pid}`;
  const sql = admin();
  await sql.unsafe(`drop database if exists ${name}`);
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  made.push(name);
  const url = new URL(inject("serverUrl"));
  url.pathname = `/${name}`;
  return url.toString();
}

/** A copy of db/migrations with one more migration after the last, `statement`, as the next release would add it. */
function withMigration(tag: string, statement: string) {
  const folder = mkdtempSync(path.join(tmpdir(), "migrations-"));
  folders.push(folder);
  cpSync("db/migrations", folder, { recursive: true });
  const written: typeof journal = JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8"));
  const last = written.entries.at(-1)!;
  written.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(written));
  writeFileSync(path.join(folder, `${tag}.sql`), statement);
  return folder;
}

afterEach(async () => {
  const sql = admin();
  for (const name of made.splice(0)) await sql.unsafe(`drop database if exists ${name} with (force)`);
  await sql.end();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("migrating", () => {
  it("from several processes at once applies each migration once, and every one", async () => {
    const url = await emptyDatabase("together");
    await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const applied = await sql<Array<{ created_at: string }>>`select created_at::text from drizzle.__drizzle_migrations order by created_at`;
      expect(applied.map((row) => row.created_at)).toEqual(journal.entries.map((entry) => String(entry.when)));
      const [worker] = await sql`select count(*)::int as migrations from graphile_worker.migrations`;
      expect(worker!.migrations).toBeGreaterThan(0);
    } finally {
      await sql.end();
    }
    // Again on a migrated database: nothing to do, nothing added.
    await migrateDatabase(url);
  });

  // A session lock, held between transactions, is what a pooler in transaction mode strands.
  it("holds its lock only inside a transaction, never on an idle connection between two", async () => {
    const url = await emptyDatabase("lock");
    const watcher = postgres(url, { max: 1, onnotice: () => {} });
    /** Each look at the lock (this database's: other test files migrate theirs meanwhile): its holders, and those of them outside a transaction. */
    const looks: Array<{ holders: number; idle: number[] }> = [];
    let migrating = true;
    const watching = (async () => {
      while (migrating) {
        const holders = await watcher<Array<{ pid: number; in_transaction: boolean }>>`
          select a.pid, a.xact_start is not null as in_transaction
          from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted and l.objid = hashtext('interview-api:migrate')::oid
            and l.database = (select oid from pg_database where datname = current_database())`;
        looks.push({ holders: holders.length, idle: holders.filter((holder) => !holder.in_transaction).map((holder) => holder.pid) });
      }
    })();
    try {
      await migrateDatabase(url);
    } finally {
      migrating = false;
      await watching;
      await watcher.end();
    }
    expect(looks.some((look) => look.holders > 0)).toBe(true);
    // pg_locks and pg_stat_activity are read a moment apart, so one look may catch the holder just after its commit; a holder idle
    // in two looks in a row holds the lock between transactions.
    const idleTwice = looks.flatMap((look, index) => look.idle.filter((pid) => index > 0 && looks[index - 1]!.idle.includes(pid)));
    expect(idleTwice).toEqual([]);
  });

  // A statement waiting for an ACCESS EXCLUSIVE lock queues every later reader of the table behind it: a migration
  // stuck behind a long transaction would stop the API with it, for as long as that transaction stays open.
  it("gives up a lock it cannot get within its lock timeout and tries again, so the table's readers are never held behind it", async () => {
    const url = await emptyDatabase("waits");
    await migrateDatabase(url);
    // The next release's migration: it alters a table the API reads, which takes the table's ACCESS EXCLUSIVE lock.
    const migrationsFolder = withMigration("0001_email_priority", `ALTER TABLE "emails" ADD COLUMN "priority" integer;`);
    const holder = postgres(url, { max: 1, onnotice: () => {} });
    // The reader gives up after 3 s, so that without the lock timeout it fails rather than waits for the holder forever.
    const reader = postgres(url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 3000 } });
    const lockWaits: MigrationLockWait[] = [];
    let migrated = false;
    let migrating: Promise<void> | undefined;
    try {
      // A transaction that read the table the migration alters, left open: it holds an ACCESS SHARE lock on it until it ends.
      const held = await holder.reserve();
      await held`begin`;
      await held`select count(*) from emails`;
      const [{ pid }] = await held<[{ pid: number }]>`select pg_backend_pid() as pid`;
      migrating = migrateDatabase(url, { migrationsFolder, onLockWait: (wait) => lockWaits.push(wait) }).then(() => {
        migrated = true;
      });
      const readerWaits: number[] = [];
      for (const until = Date.now() + 4000; Date.now() < until; ) {
        const started = Date.now();
        await reader`select count(*) from emails`.catch(() => {});
        readerWaits.push(Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(Math.max(...readerWaits)).toBeLessThan(1000);
      expect(migrated).toBe(false);
      expect(lockWaits.length).toBeGreaterThanOrEqual(2);
      expect(lockWaits[0]!.blockers.join("\n")).toContain(`pid ${pid} `);

      await held`commit`;
      held.release();
      await migrating;
      const [column] = await reader`select 1 from information_schema.columns where table_name = 'emails' and column_name = 'priority'`;
      expect(column).toBeDefined();
    } finally {
      // Should a check fail with the holder still open, ending its session lets the migration finish.
      await holder.end({ timeout: 0 });
      await migrating;
      await reader.end();
    }
  }, 60_000);
});
