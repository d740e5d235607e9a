/**
 * A primary and its standby, as operators run them: Debian's PostgreSQL
 * (the binaries TEST_POSTGRES_BIN names, `.ci/stock-postgres bin`), the
 * standby made with `pg_basebackup -R` and streaming from the primary, and
 * synchronous replication (`synchronous_standby_names = '*'`): a commit is
 * acknowledged only once the standby has it, so a failover loses nothing
 * acknowledged. Both listen on 127.0.0.1 only, under a folder of the test's.
 */
import { execFileSync } from "node:child_process";
import { chownSync, copyFileSync, mkdirSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { migrateDatabase } from "@/db/migrate";
import { type RunningDatabase, startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { freePort } from "./ports";

export type ReplicatedPostgres = {
  primaryUrl: string;
  standbyUrl: string;
  /** The primary's immediate stop (`pg_ctl stop -m immediate`): no checkpoint, every connection cut, as a crashed host. */
  crashPrimary: () => Promise<void>;
  /** `pg_promote()` on the standby, which answers once it accepts writes. */
  promoteStandby: () => Promise<void>;
  stop: () => Promise<void>;
};

/** Starts both, the database `database` migrated on the primary and streamed to the standby. */
export async function startReplicatedPostgres(folder: string, database: string, binaries: string): Promise<ReplicatedPostgres> {
  const primaryDirectory = path.join(folder, "primary");
  const standbyDirectory = path.join(folder, "standby");
  const primary = await startEmbeddedPostgres({ directory: primaryDirectory, port: await freePort(), database, binaries });
  await migrateDatabase(primary.url);

  // The data folder belongs to whoever runs the server (as root: the postgres user), and so does the copy.
  const owner = statSync(primaryDirectory);
  const asOwner = userInfo().uid === 0 ? { uid: owner.uid, gid: owner.gid } : {};
  mkdirSync(standbyDirectory, { mode: 0o700 });
  if (userInfo().uid === 0) chownSync(standbyDirectory, owner.uid, owner.gid);
  // startEmbeddedPostgres keeps a server's password beside its folder: the copy has the primary's.
  copyFileSync(`${primaryDirectory}.password`, `${standbyDirectory}.password`);
  const from = new URL(primary.url);
  execFileSync(
    path.join(binaries, "pg_basebackup"),
    [
      "--pgdata",
      standbyDirectory,
      "--write-recovery-conf",
      "--wal-method=stream",
      "--checkpoint=fast",
      "--dbname",
      `host=${from.hostname} port=${from.port} user=postgres password=${decodeURIComponent(from.password)} application_name=standby`,
    ],
    { ...asOwner, stdio: "pipe" },
  );
  const standby = await startEmbeddedPostgres({ directory: standbyDirectory, port: await freePort(), database, binaries });

  const admin = postgres(primary.url, { max: 1, onnotice: () => {} });
  try {
    await admin`alter system set synchronous_standby_names = '*'`;
    await admin`select pg_reload_conf()`;
    const deadline = Date.now() + 30_000;
    while ((await admin`select 1 from pg_stat_replication where sync_state = 'sync'`).length === 0) {
      if (Date.now() > deadline) throw new Error("The standby did not become synchronous within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.end({ timeout: 1 });
  }

  const pgCtl = (directory: string, ...args: string[]) =>
    execFileSync(path.join(binaries, "pg_ctl"), [...args, "-D", directory], { ...asOwner, stdio: "pipe" });
  const stopped = new Set<RunningDatabase>();
  return {
    primaryUrl: primary.url,
    standbyUrl: standby.url,
    crashPrimary: async () => {
      pgCtl(primaryDirectory, "stop", "-m", "immediate", "-w");
      stopped.add(primary);
    },
    promoteStandby: async () => {
      const sql = postgres(standby.url, { max: 1, onnotice: () => {} });
      try {
        const [row] = await sql<Array<{ promoted: boolean }>>`select pg_promote(wait => true, wait_seconds => 60) as promoted`;
        if (!row?.promoted) throw new Error("The standby was not promoted within 60 s");
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
    stop: async () => {
      for (const server of [standby, primary]) if (!stopped.has(server)) await server.stop();
    },
  };
}
