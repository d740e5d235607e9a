/**
 * Dead database connections must not end a long-running process: the pools
 * (postgres.js and graphile-worker's node-postgres) replace them, and the
 * query on them has already failed. Two faults escape every caller:
 * - postgres.js 3.4.9 throws from a `setImmediate` write after the server
 *   closed the connection (porsager/postgres#1154, #1208; unfixed upstream).
 *   Our patch (patches/) fails the statement instead on the path seen (a
 *   transaction's next statement after its connection closed); this stays
 *   for any other;
 * - node-postgres can emit the server's termination error (57P01 and kin,
 *   e.g. during a PostgreSQL restart) on a client with no listener.
 * Those are logged and survived. Any other uncaught exception ends the process.
 */
import { log } from "@/server/log";

const terminationCodes = new Set(["57P01", "57P02", "57P03"]);

function isDeadConnection(error: unknown) {
  const stack = (error as Error)?.stack ?? "";
  const closedSocketWrite =
    error instanceof TypeError && /reading 'write'/.test(error.message) && /postgres[\\/]src[\\/]connection\.js/.test(stack) && /nextWrite/.test(stack);
  const terminated = terminationCodes.has((error as { code?: string })?.code ?? "") && /pg-protocol/.test(stack);
  return closedSocketWrite || terminated;
}

export function surviveDeadConnections() {
  process.on("uncaughtException", (error) => {
    if (isDeadConnection(error)) {
      log.warn("a database connection died; the pool replaces it", { error });
      return;
    }
    log.error("uncaught exception", { error });
    process.exit(1);
  });
}
