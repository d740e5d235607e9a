/**
 * Whether a failure means the database is not there to answer (stopped,
 * failing over, out of connection slots, unreachable) rather than a fault in
 * what was asked. Each caller answers it its own way: /v1 with 503 and
 * `Retry-After` (server/api/http/api-failure.ts), readiness with the reason
 * (server/observability/readiness.ts), the CLI with what to do, and a log
 * line per outage, not per failure (server/observability/outage-log.ts). The reason
 * never carries an address or a secret: it is shown to load balancers and
 * API clients.
 */
export type Unavailability = {
  /** What is wrong, for a person: public, so no address. */
  reason: string;
  /** The failure came while connecting: nothing of the statement reached the server, so it may be sent again. */
  beforeSending: boolean;
};

/** Socket errors while connecting (Node's), and postgres.js's own for a connection that never finished its startup. */
const connectErrors: Record<string, string> = {
  ECONNREFUSED: "database unreachable: connection refused",
  ENOTFOUND: "database unreachable: its host name does not resolve",
  EAI_AGAIN: "database unreachable: its host name does not resolve",
  EHOSTUNREACH: "database unreachable: no route to its host",
  ENETUNREACH: "database unreachable: no route to its host",
  CONNECT_TIMEOUT: "database unreachable: connecting timed out",
  // Our postgres.js patch's: a proxy or load balancer whose server is down took the connection and closed it.
  STARTUP_CLOSED: "database unreachable: the connection was closed before it was ready",
};

/** Errors of a connection lost with a statement in flight: it may or may not have run. */
const lostConnectionErrors: Record<string, string> = {
  ECONNRESET: "database connection lost",
  EPIPE: "database connection lost",
  ETIMEDOUT: "database connection lost",
  CONNECTION_CLOSED: "database connection lost",
  CONNECTION_ENDED: "database connection lost",
  CONNECTION_DESTROYED: "database connection lost",
  REPLY_TIMEOUT: "database connection lost: no reply in time",
  "57P01": "database shutting down",
  "57P02": "database restarting after a crash",
};

/** SQLSTATEs the server refuses a new connection with (its startup failed, so nothing was sent). */
const refusedConnectionStates: Record<string, string> = {
  "53300": "database refuses new connections: too many clients (raise max_connections, or lower the pools)",
  "57P03": "database not accepting connections yet (starting up, in recovery, or shutting down)",
};

/** node-postgres (graphile-worker's driver) gives a lost connection no code, only one of these messages. */
const nodePostgresLostConnections = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "Client has encountered a connection error and is not queryable",
]);

/** Whether `error`, or an error it wraps (drizzle wraps the driver's), means the database is unavailable; null otherwise. */
export function databaseUnavailability(error: unknown): Unavailability | null {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== "string") {
      if (cause instanceof Error && nodePostgresLostConnections.has(cause.message)) return { reason: "database connection lost", beforeSending: false };
      continue;
    }
    if (connectErrors[code]) return { reason: connectErrors[code], beforeSending: true };
    if (refusedConnectionStates[code]) return { reason: refusedConnectionStates[code], beforeSending: true };
    if (lostConnectionErrors[code]) return { reason: lostConnectionErrors[code], beforeSending: false };
    // Any other connection exception (class 08) or a read-only server (a standby not yet promoted).
    if (code.startsWith("08")) return { reason: "database connection failed", beforeSending: false };
    if (code === "25006") return { reason: "database is read-only (a standby, or not yet promoted)", beforeSending: false };
  }
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt`, and again while it fails before sending anything because
 * the database is unavailable, for up to `withinMs` (Infinity: until it is
 * back): a pool briefly out of slots or a failover's last seconds are waited
 * out, not answered as errors. Waits grow from 100 ms to a second, so waiting
 * callers do not hammer a database that is down. `onUnavailable` hears each
 * failure waited out. `connecting`: `attempt` only opens or checks out a
 * connection, so nothing was sent however the database failed (node-postgres
 * reports a connection closed during its startup as lost). The last failure
 * is thrown.
 */
export async function whileUnavailable<T>(
  attempt: () => Promise<T>,
  withinMs: number,
  onUnavailable?: (unavailable: Unavailability) => void,
  options: { connecting?: boolean } = {},
): Promise<T> {
  const giveUpAt = performance.now() + withinMs;
  for (let waitMs = 100; ; waitMs = Math.min(waitMs * 2, 1_000)) {
    try {
      return await attempt();
    } catch (error) {
      const left = giveUpAt - performance.now();
      const unavailable = databaseUnavailability(error);
      if (!unavailable || !(unavailable.beforeSending || options.connecting) || left <= 0) throw error;
      onUnavailable?.(unavailable);
      await sleep(Math.min(waitMs, left));
    }
  }
}
