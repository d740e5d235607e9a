import type { Task } from "graphile-worker";
import type { SendEmailPayload } from "@/server/jobs/queue";
import { sendQueuedEmail } from "@/server/notifications/email";
import type { WorkerDeps } from "../deps";

/** Sends an email recorded with the change it reports; a failed send throws, so graphile-worker tries again. */
export const sendEmail =
  (deps: WorkerDeps): Task =>
  async (payload) => {
    await sendQueuedEmail(deps.ctx, deps.mailer, (payload as SendEmailPayload).emailId);
  };
