import { databaseUnavailability } from "@/db/availability";

/**
 * What the operator reads when the database is not there for a command
 * (stopped, restarting, failing over, out of connection slots), in place of
 * the driver's bare `read ECONNRESET`. A command commits its changes in
 * transactions, so one cut off halfway kept no change half-written: what it
 * committed before stays, the one in flight was kept whole or not at all.
 */
export function databaseFailure(error: unknown): { kind: "database_unavailable"; message: string } | null {
  const unavailable = databaseUnavailability(error);
  if (!unavailable) return null;
  const what = unavailable.beforeSending
    ? `The database cannot be reached (${unavailable.reason}): nothing was changed.`
    : `The database went away while the command ran (${unavailable.reason}). No change was kept half-written: each is committed whole or not at all.`;
  return { kind: "database_unavailable", message: `${what} Run the command again once the database answers.` };
}
