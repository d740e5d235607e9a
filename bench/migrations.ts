/**
 * `npm run bench:migrations [-- --from 0001_x --candidates 1000000 --seconds 10 --keep /work/bench-db]`
 *
 * Each migration from `--from` on (by default every one after the baseline,
 * `0000_baseline`, which makes the schema of an empty database), applied the
 * way the product's migrator does (db/migrate.ts) to a database of
 * `--candidates` candidates while the API and deliveries run: the production
 * web server under a few connections of GET /v1/candidates,
 * /v1/candidates/{id} and /v1/events, and a worker process delivering a
 * steady stream of new candidates' events to a loopback receiver. For each
 * migration: its duration, and the longest wait an API request and a
 * delivery (the event's write to its arrival) saw while it ran, against the
 * longest of the same load in the `--seconds` before it. PASS
 * when both stay under 1 s; a MISS needs a line in the README saying what the
 * migration requires of an operator.
 *
 * The database is seeded once (`simulate --bulk`, as bench:bulk and
 * bench:api seed) and migrated up to the migration before `--from`; each run
 * works on a copy of it. With `--keep <folder>` the seeded database is kept
 * for the next run (the embedded server's data in that folder; with
 * DATABASE_URL, a database on that server): seeding a million candidates
 * takes minutes, a copy seconds.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { createDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import journal from "@/db/migrations/meta/_journal.json";
import { simulate } from "@/server/demo/simulate";
import { createApiKey, createCompany, setCompanyRateLimits } from "@/server/domain/accounts";
import { createDomainContext } from "@/server/domain/context";
import { localFileStorage } from "@/server/storage/file-storage";
import { submitCandidate } from "../tests/support/fixtures";
import { startDeliveryBench, stopChild } from "./deliveries";
import { benchDatabaseOn, embeddedBenchServer, ensureBuild, fixed, startProductServer, table } from "./support";

const { values } = parseArgs({
  options: {
    from: { type: "string" },
    candidates: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "10" },
    keep: { type: "string" },
  },
});
const candidates = Number(values.candidates);
const seconds = Number(values.seconds);
/** The longest wait a request or a delivery may see while a migration runs. */
const targetMs = 1000;
/** Connections on the API, each going round the three endpoints. */
const apiConnections = 3;
/** A new candidate (about 7 events to the webhook) every this many milliseconds. */
const writePauseMs = 500;
const log = (line: string) => process.stdout.write(`${line}\n`);

const from = values.from ?? journal.entries[1]?.tag;
if (from === undefined) {
  log("nothing to check: no migration after the baseline yet");
  process.exit(0);
}
const fromIndex = journal.entries.findIndex((entry) => entry.tag === from);
if (fromIndex < 1) throw new Error(`--from: no migration after the first is named ${from}`);
const checked = journal.entries.slice(fromIndex).map((entry) => entry.tag);
const base = journal.entries[fromIndex - 1]!.tag;

const server = process.env.DATABASE_URL
  ? { url: process.env.DATABASE_URL, directory: undefined, stop: async () => {} }
  : await embeddedBenchServer(values.keep);
const admin = postgres(server.url, { max: 1, onnotice: () => {} });
/** The seeded database, migrated through `base`: kept under this name with `--keep`. */
const seededName = `migrations_${base.slice(0, 4)}_${candidates}`;

/** The seeded database's name: the kept one when there is one, otherwise one seeded now. */
async function seededDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const [kept] = await admin`select 1 from pg_database where datname = ${seededName}`;
  if (kept && values.keep) {
    log(`reusing ${seededName} (${candidates.toLocaleString("en")} candidates, migrated through ${base})`);
    return { name: seededName, drop: async () => {} };
  }
  log(`seeding ${candidates.toLocaleString("en")} candidates, migrated through ${base}…`);
  const seeding = await benchDatabaseOn(server.url, { through: base });
  const handle = createDatabase(seeding.url);
  const ctx = createDomainContext(handle.db, { storage: localFileStorage(mkdtempSync(path.join(tmpdir(), "bench-files-"))) });
  const { id: companyId } = await createCompany(ctx, { name: "Migrations" });
  const started = performance.now();
  let printed = started;
  await simulate(ctx, {
    companyId,
    interviews: 4,
    candidates,
    bulk: true,
    seed: 42,
    onProgress: (done) => {
      if (performance.now() - printed < 30_000) return;
      printed = performance.now();
      process.stderr.write(`  ${done.toLocaleString("en")} done\n`);
    },
  });
  // The seeded history counts as fanned out long ago (the company has no webhook), so no worker walks it during the check.
  await handle.sql`
    insert into fan_out_positions (company_id, tx_id, seq, updated_at)
    select company_id, tx_id, seq, now() from events where company_id = ${companyId} order by tx_id desc, seq desc limit 1
    on conflict (company_id) do update set tx_id = excluded.tx_id, seq = excluded.seq`;
  await handle.sql`vacuum analyze`;
  await handle.close();
  log(`  seeded in ${fixed((performance.now() - started) / 1000)} s`);
  if (!values.keep) return { name: seeding.name, drop: seeding.stop };
  await admin.unsafe(`drop database if exists ${seededName}`);
  await admin.unsafe(`alter database ${seeding.name} rename to ${seededName}`);
  return { name: seededName, drop: async () => {} };
}

type Span = { start: number; end: number };
/** The longest of the spans that overlap [from, to], and how many overlap. */
function longestWithin(spans: Span[], from: number, to: number) {
  const overlapping = spans.filter((span) => span.start <= to && span.end >= from);
  return { count: overlapping.length, longestMs: Math.max(0, ...overlapping.map((span) => span.end - span.start)) };
}

const seeded = await seededDatabase();
const copying = performance.now();
const database = await benchDatabaseOn(server.url, { template: seeded.name });
log(`copied it in ${fixed((performance.now() - copying) / 1000)} s`);
const handle = createDatabase(database.url);
const filesDir = mkdtempSync(path.join(tmpdir(), "bench-files-"));
const ctx = createDomainContext(handle.db, { storage: localFileStorage(filesDir) });
const lastChecked = journal.entries.at(-1)!;

try {
  const [{ id: listedCompany }] = await handle.sql<[{ id: string }]>`select id from companies where name = 'Migrations'`;
  const { key } = await createApiKey(ctx, { companyId: listedCompany, name: "load" });
  // High enough never to refuse, so the check is paid on every request without limiting the load.
  await setCompanyRateLimits(ctx, listedCompany, { perKey: 1_000_000, perCompany: 1_000_000 });
  const [{ id: candidateId }] = await handle.sql<[{ id: string }]>`
    select id from candidates where company_id = ${listedCompany} and submitted_at is not null order by id limit 1 offset 500`;

  ensureBuild();
  const web = await startProductServer(database.url, {
    APP_SECRET: randomBytes(32).toString("hex"),
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
    FILE_STORAGE_DIR: filesDir,
  });
  const deliveries = await startDeliveryBench(database, handle, ctx, { concurrency: 10 });
  // A worker applies pending migrations as it starts; these ones are the bench's to apply, so they are
  // marked applied while it starts (as a process of the release before would find them: not there at all).
  await handle.sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('bench: held back', ${lastChecked.when})`;
  const worker = await deliveries.startProductWorker();
  await handle.sql`delete from drizzle.__drizzle_migrations where hash = 'bench: held back'`;

  // The API load: each connection goes round the three endpoints, one request after another.
  const requests: Array<Span & { status: number }> = [];
  const paths = ["/v1/candidates?limit=25", `/v1/candidates/${candidateId}`, "/v1/events?limit=25"];
  let running = true;
  const apiLoad = Promise.all(
    Array.from({ length: apiConnections }, async (_, connection) => {
      for (let index = connection; running; index++) {
        const start = Date.now();
        // A refused connection counts as status 0: the load goes on, and the count of failures says so.
        const status = await fetch(`${web.baseUrl}${paths[index % paths.length]}`, { headers: { Authorization: `Bearer ${key}` } }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => 0,
        );
        requests.push({ start, end: Date.now(), status });
      }
    }),
  );
  let writeFailures = 0;
  // The deliveries: a new candidate taken through a whole attempt, again and again.
  const writes = (async () => {
    while (running) {
      await submitCandidate(ctx, deliveries.interview).catch(() => writeFailures++);
      await new Promise((resolve) => setTimeout(resolve, writePauseMs));
    }
  })();

  /** Each delivery so far, from its event's write to its arrival at the receiver. */
  async function deliverySpans(): Promise<Span[]> {
    const arrivals = deliveries.receiver.received.map((request) => ({ id: (JSON.parse(request.body) as { id: string }).id, at: request.at }));
    const written = await handle.sql<Array<{ id: string; at: number }>>`
      select id, extract(epoch from created_at) * 1000 as at from events where id = any(${arrivals.map((arrival) => arrival.id)})`;
    const writtenAt = new Map(written.map((event) => [event.id, Number(event.at)]));
    return arrivals.map((arrival) => ({ start: writtenAt.get(arrival.id)!, end: arrival.at }));
  }

  /** Waits until every message of an event written by `time` has arrived at the receiver (at most 60 s). */
  async function deliveredThrough(time: number) {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      // Events not yet fanned out have no message: they count as waiting too.
      const [{ waiting }] = await handle.sql<[{ waiting: number }]>`
        select (select count(*)::int from webhook_messages
            where company_id = ${deliveries.companyId} and history_at <= to_timestamp(${time / 1000}) and status <> 'succeeded')
          + (select count(*)::int from events e
            left join fan_out_positions p on p.company_id = e.company_id
            where e.company_id = ${deliveries.companyId} and e.created_at <= to_timestamp(${time / 1000})
              and (e.tx_id, e.seq) > (coalesce(p.tx_id, 0), coalesce(p.seq, 0))) as waiting`;
      if (waiting === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  log(`load: ${apiConnections} connections on the API, a new candidate every ${writePauseMs} ms delivered to a loopback receiver; warming up…`);
  // Until the worker's start-up backlog (its first fan-out, connections, compiled code) is delivered, so no window pays for it.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  await deliveredThrough(Date.now());
  const rows = [
    ["migration", "migrator run", "API requests", "API longest wait (before)", "ratio", "deliveries", "delivery longest wait (before)", "ratio", "verdict"],
  ];
  const verdicts: string[] = [];
  for (const tag of checked) {
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const start = Date.now();
    await migrateDatabase(database.url, { through: tag });
    const end = Date.now();
    // Requests in flight at the end finish, and the deliveries of events written meanwhile arrive.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await deliveredThrough(end);
    const spans = await deliverySpans();
    const api = { during: longestWithin(requests, start, end), before: longestWithin(requests, before, start) };
    const delivery = { during: longestWithin(spans, start, end), before: longestWithin(spans, before, start) };
    const holds = api.during.longestMs < targetMs && delivery.during.longestMs < targetMs;
    rows.push([
      tag,
      `${end - start} ms`,
      String(api.during.count),
      `${api.during.longestMs} ms (${api.before.longestMs} ms)`,
      fixed(api.during.longestMs / api.before.longestMs, 2),
      String(delivery.during.count),
      `${delivery.during.longestMs} ms (${delivery.before.longestMs} ms)`,
      fixed(delivery.during.longestMs / delivery.before.longestMs, 2),
      holds ? "PASS" : "MISS",
    ]);
    verdicts.push(
      `${holds ? "PASS" : "MISS"} ${tag}: the longest wait while it ran, ${Math.max(api.during.longestMs, delivery.during.longestMs)} ms (target under ${targetMs} ms${holds ? "" : "; otherwise the README says what it requires of an operator"})`,
    );
  }
  running = false;
  await Promise.all([apiLoad, writes]);
  const failed = requests.filter((request) => request.status !== 200).length;
  log(`\n${candidates.toLocaleString("en")} candidates; ${requests.length.toLocaleString("en")} API requests (${failed} not 200)\n`);
  log(`${table(rows)}\n`);
  log(verdicts.join("\n"));
  if (failed > 0) log(`MISS ${failed} API requests were not answered 200`);
  if (writeFailures > 0) log(`MISS ${writeFailures} candidates could not be written`);
  await stopChild(worker);
  await web.stop();
  await deliveries.receiver.close();
} finally {
  await handle.close();
  await database.stop();
  await seeded.drop();
  await admin.end();
  await server.stop();
}
process.exit(0);
