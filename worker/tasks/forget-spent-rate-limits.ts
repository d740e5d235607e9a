import type { Task } from "graphile-worker";
import { forgetSpentRateLimits } from "@/server/security/rate-limit-buckets";
import type { WorkerDeps } from "../deps";

/** Every hour: rate-limit buckets that are full again are deleted. */
export const forgetSpentRateLimitsTask =
  (deps: WorkerDeps): Task =>
  async () => {
    await forgetSpentRateLimits(deps.sql);
  };
