/**
 * The database server's clock, read on this host without a round trip: the
 * one clock every web and worker process agrees on, whatever their hosts'
 * clocks say (docs/operations.md, "Hosts whose clocks disagree"). A message's
 * lease, its retry time, a webhook's day of failures, retention and a
 * download link's 15 minutes are all decided by processes that compare times
 * another process wrote; on their hosts' clocks, a worker two minutes behind
 * would take over leases that have not run out, and send their messages again.
 *
 * The offset from this host's clock is measured at start and every
 * `resyncMs`, from one `clock_timestamp()` read halfway through its round
 * trip (off by at most half of it: under a millisecond on a LAN). While the
 * database cannot be read the last offset holds: a host's clock drifts
 * milliseconds a minute, not seconds.
 */
import type postgres from "postgres";
import type { Clock } from "./context";

export type DatabaseClock = Clock & {
  /** Settled once the first reading is in, or has failed (the host's clock stands in until one succeeds). */
  ready: Promise<void>;
  stop: () => void;
};

/** How often the offset is measured again: NTP slews a drifting host by milliseconds, and steps it rarely. */
const resyncMs = 30_000;
/** How soon a failed first reading is tried again: until one succeeds, the host's own clock is all there is. */
const firstReadingRetryMs = 1_000;

export function databaseClock(sql: postgres.Sql): DatabaseClock {
  let offsetMs = 0;
  let measured = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const measure = async () => {
    try {
      const before = Date.now();
      const [row] = await sql<[{ ms: number }]>`select extract(epoch from clock_timestamp())::float8 * 1000 as ms`;
      const after = Date.now();
      offsetMs = row.ms - (before + after) / 2;
      measured = true;
    } catch {
      // The database is unreachable: its readiness and the failing work say so; the last offset holds meanwhile.
    }
    if (!stopped) {
      timer = setTimeout(measure, measured ? resyncMs : firstReadingRetryMs);
      timer.unref();
    }
  };

  return {
    now: () => new Date(Date.now() + offsetMs),
    ready: measure(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
