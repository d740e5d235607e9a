import type { DomainContext } from "@/server/domain/context";
import { enqueueFanOut } from "@/server/jobs/queue";
import { log } from "@/server/log";
import { fanOutCompany } from "./fan-out";

/**
 * Fan-out's runs in one process: one run per company at a time. A job for a
 * company whose run is under way asks that run to go once more, and ends.
 * The run's next read sees every event committed before the job was taken,
 * the job's own included. (Several at once each read the same batch, and all
 * but one lost the race for the position.) Should that run fail, its job is
 * tried again, a new job is asked for the jobs folded into it, and the
 * per-minute catch-up finds any company left behind. Runs in several
 * processes still overlap, and take turns at the position (fan-out.ts).
 */
export function fanOutRuns(ctx: DomainContext) {
  /** The run under way per company: whether a job asked it to go once more, and whether any job folded into it. */
  const running = new Map<string, { again: boolean; folded: boolean }>();
  return async function fanOut(companyId: string): Promise<void> {
    const underWay = running.get(companyId);
    if (underWay) {
      underWay.again = true;
      underWay.folded = true;
      return;
    }
    const run = { again: true, folded: false };
    running.set(companyId, run);
    try {
      while (run.again) {
        run.again = false;
        await fanOutCompany(ctx, companyId);
      }
    } catch (error) {
      // The jobs folded into this run have ended: their events get a job of their own now, not this one's next attempt (backed off, maybe its last).
      if (run.folded)
        await enqueueFanOut(ctx.db, companyId).catch((enqueueError: unknown) =>
          log.warn("asking again for a company's fan-out failed; the per-minute catch-up will", { companyId, error: enqueueError }),
        );
      throw error;
    } finally {
      running.delete(companyId);
    }
  };
}
