import { databaseUnavailability } from "@/db/availability";

/**
 * What the operator reads when the database is not there for a command
 * (stopped, restarting, failing over, out of connection slots), in place of
 * the driver's bare `read ECONNRESET`. Each change a command makes is one
 * transaction, so a command cut off halfway kept nothing half-written, and
 * running it again is what to do.
 */
export function databaseFailure(error: unknown): { kind: "database_unavailable"; message: string } | null {
  const unavailable = databaseUnavailability(error);
  if (!unavailable) return null;
  const what = unavailable.beforeSending
    ? `The database cannot be reached (${unavailable.reason}): nothing was changed.`
    : `The database went away while the command ran (${unavailable.reason}). Each change is one transaction, so nothing half-written was kept.`;
  return { kind: "database_unavailable", message: `${what} Run the command again once the database answers.` };
}
