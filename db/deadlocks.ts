/**
 * PostgreSQL breaks a deadlock by aborting one of the transactions in it
 * (SQLSTATE 40P01). Nothing of the aborted one committed, so running it again
 * is safe; the locks it waited for are free by then. Used where transactions
 * lock a webhook's messages in different orders (fan-out, recording an
 * attempt, turning a webhook off), which cannot always be avoided.
 */
const deadlockDetected = "40P01";

/** Whether PostgreSQL failed `error` with SQLSTATE `code`, however drizzle wrapped it (in `cause`). */
export const hasSqlState = (error: unknown, code: string): boolean => {
  for (let current = error as { code?: string; cause?: unknown } | undefined, depth = 0; current && depth < 4; depth++) {
    if (current.code === code) return true;
    current = current.cause as typeof current;
  }
  return false;
};

export async function retryOnDeadlock<T>(transaction: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= tries || !hasSqlState(error, deadlockDetected)) throw error;
    }
  }
}
