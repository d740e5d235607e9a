/**
 * Debian's PgBouncer in front of a test's database, configured as
 * docs/operations.md's recipe for the web processes says: transaction mode,
 * the service's startup parameters ignored (the database's own settings
 * stand in for them), and a server pool far smaller than the web's pool, so
 * one web connection's transactions run on several server connections and
 * anything that leans on session state (a prepared statement, a SET, a
 * session lock) breaks or shows.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { debianToolPath } from "./debian-tools";
import { freePort } from "./ports";

/** The parameters each of the service's pools sends at startup that PgBouncer does not track (db/client.ts). */
export const ignoredStartupParameters = ["jit", "statement_timeout", "idle_in_transaction_session_timeout"];

export type PgBouncer = {
  /** The address the web process is given: through the pooler, prepared statements off (PgBouncer 1.18 routes none). */
  url: string;
  logs: () => string;
  stop: () => Promise<void>;
};

/** The parameters PgBouncer itself sets on a server connection to match each client's (`SET` at session level, by design). */
export const trackedParameters = ["application_name", "client_encoding", "DateStyle", "TimeZone", "standard_conforming_strings"];

export async function startPgBouncer(targetUrl: string, serverPoolSize = 2): Promise<PgBouncer> {
  const target = new URL(targetUrl);
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), "interview-api-pgbouncer-"));
  // As root it runs as the postgres user (it refuses root), who must read its configuration.
  chmodSync(folder, 0o755);
  const config = path.join(folder, "pgbouncer.ini");
  const connectTo = `host=${target.hostname} port=${target.port} user=${decodeURIComponent(target.username)} password=${decodeURIComponent(target.password)}`;
  writeFileSync(
    config,
    [
      "[databases]",
      `* = ${connectTo}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      `default_pool_size = ${serverPoolSize}`,
      "max_client_conn = 500",
      `ignore_startup_parameters = ${ignoredStartupParameters.join(", ")}`,
      // While no server answers (a failover), a query waits 5 s instead of 120, and a failed login is tried again after 1 s instead of 15.
      "query_wait_timeout = 5",
      "server_login_retry = 1",
    ].join("\n"),
    { mode: 0o644 },
  );
  const asRoot = userInfo().uid === 0;
  const child: ChildProcess = spawn(debianToolPath("pgbouncer") ?? "pgbouncer", [...(asRoot ? ["-u", "postgres"] : []), config], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (!/process up/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`PgBouncer did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const database = target.pathname.slice(1);
  return {
    url: `postgres://web@127.0.0.1:${port}/${database}?prepare=false`,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
