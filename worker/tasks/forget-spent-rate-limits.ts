import type { Task } from "graphile-worker";
import { forgetSpentRateLimits } from "@/server/api/admission";
import type { WebhookDeps } from "@/server/webhooks/deps";

/** Every hour: rate-limit buckets that are full again are deleted. */
export const forgetSpentRateLimitsTask =
  (deps: WebhookDeps): Task =>
  async () => {
    await forgetSpentRateLimits(deps.sql);
  };
