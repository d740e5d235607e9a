import type { Task } from "graphile-worker";
import type { SendEmailPayload } from "@/server/jobs/queue";
import { sendQueuedEmail } from "@/server/notifications/email";
import type { WebhookDeps } from "@/server/webhooks/deps";

/** Sends an email recorded with the change it reports; a failed send throws, so graphile-worker tries again. */
export const sendEmail =
  (deps: WebhookDeps): Task =>
  async (payload) => {
    await sendQueuedEmail(deps.ctx, deps.mailer, (payload as SendEmailPayload).emailId);
  };
