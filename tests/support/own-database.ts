/**
 * A PostgreSQL server of the test file's own, so that restarting it disturbs
 * no other file: migrated, with a webhook receiver whose CA worker processes
 * can trust (`caFile`), and a domain context that follows restarts. The
 * embedded build, or the stock build whose binaries TEST_POSTGRES_BIN names
 * (`.ci/stock-postgres bin`), so the fault tests run on both.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createDomainContext, type DomainContext } from "@/server/domain/context";
import { type RunningDatabase, startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { localFileStorage } from "@/server/storage/file-storage";
import { freePort } from "./ports";
import { type Receiver, startReceiver } from "./receiver";

export type OwnDatabase = {
  url: string;
  handle: DatabaseHandle;
  ctx: DomainContext;
  receiver: Receiver;
  caFile: string;
  /**
   * Restarts the server: "fast" is PostgreSQL's orderly stop; "immediate" its
   * SIGQUIT shutdown (no checkpoint, every connection cut). The test's own
   * pool is not under test: it leaves before and comes back after.
   * `whileDown` runs after the server stopped and before it starts again.
   */
  restart: (mode: "fast" | "immediate", whileDown?: () => Promise<void>) => Promise<void>;
};

/** `settings`: the server's own (`max_connections`, say), given at its start. */
export function useOwnDatabase(name: string, options: { settings?: Record<string, string> } = {}): OwnDatabase {
  let folder: string;
  let port: number;
  let server: RunningDatabase;
  const start = () =>
    startEmbeddedPostgres({
      directory: path.join(folder, "postgres"),
      port,
      database: name,
      binaries: process.env.TEST_POSTGRES_BIN,
      settings: options.settings,
    });
  const own = {} as OwnDatabase;
  const connect = () => {
    own.url = server.url;
    own.handle = createDatabase(server.url);
  };

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), `interview-api-${name}-`));
    port = await freePort();
    server = await start();
    await migrateDatabase(server.url);
    connect();
    // One context for the whole file, whose database is always the current
    // connection: writers that took it before a restart go on after it.
    own.ctx = {
      ...createDomainContext(own.handle.db, { storage: localFileStorage(path.join(folder, "files")) }),
      get db() {
        return own.handle.db;
      },
    };
    own.receiver = await startReceiver();
    own.caFile = path.join(folder, "ca.pem");
    writeFileSync(own.caFile, own.receiver.ca);
  }, 120_000);

  afterAll(async () => {
    await own.handle?.close();
    await server?.stop();
    await own.receiver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  own.restart = async (mode, whileDown) => {
    await own.handle.close();
    if (mode === "fast") await server.stop();
    else await shutDownImmediately(path.join(folder, "postgres"));
    try {
      await whileDown?.();
    } finally {
      // Up again even when the check failed, so the file's other tests and its teardown find it.
      server = await start();
      connect();
    }
  };
  return own;
}

async function shutDownImmediately(dataDirectory: string) {
  const pid = Number(readFileSync(path.join(dataDirectory, "postmaster.pid"), "utf8").split("\n")[0]);
  process.kill(pid, "SIGQUIT");
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
