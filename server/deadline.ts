/**
 * A general timeout, not tied to any one room: readiness and the metrics
 * wait on the database with it, saving a webhook waits on DNS.
 */

export class DeadlineExceeded extends Error {}

/** `work`, or a rejection once `ms` have passed without its answer (the work itself goes on). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
