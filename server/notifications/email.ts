/**
 * Email to company admins, through an outbox.
 *
 * 1. The email is recorded in the transaction of the change it reports, with
 *    the job that sends it, so a crash can delay it but never lose it. The
 *    job sends through SMTP when SMTP_URL is set (printing it to the log in
 *    development) and is retried until it goes.
 * 2. A run claims the email before sending it: a session advisory lock on a
 *    connection of its own, held until the send is recorded, so two runs of
 *    the job never both send it (graphile-worker can run a job again while a
 *    run thought dead still holds it). The run that finds the claim taken
 *    sends nothing and fails, so the job is tried again later and then finds
 *    the email sent, or sends it if the other run's SMTP refused it.
 * 3. A run that dies releases its claim with its connection: the next run
 *    sends the email. Delivery is at least once: a run that dies after SMTP
 *    took the email and before `sent_at` is written has it sent again.
 */
import { and, eq, isNull } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Executor } from "@/db/client";
import { emails, users } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { enqueueEmail } from "@/server/jobs/queue";
import { log } from "@/server/log";
import { metrics } from "@/server/observability/metrics";

export type Mailer = { send: (message: { to: string[]; subject: string; text: string }) => Promise<void> };

export function createMailer(smtpUrl = env.SMTP_URL): Mailer | null {
  if (!smtpUrl) return null;
  const transport = nodemailer.createTransport(smtpUrl);
  return { send: async ({ to, subject, text }) => void (await transport.sendMail({ from: env.EMAIL_FROM, to, subject, text })) };
}

export type AdminEmail = { companyId: string; kind: string; subject: string; body: string };

/** Records an email to the company's admins and its sending job, in the caller's transaction. */
export async function queueAdminEmail(tx: Executor, ctx: Pick<DomainContext, "newId" | "clock">, email: AdminEmail) {
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, email.companyId), eq(users.role, "admin")));
  const id = ctx.newId("email");
  await tx.insert(emails).values({ id, ...email, recipients: admins.map((admin) => admin.email), createdAt: ctx.clock.now() });
  await enqueueEmail(tx, id);
  return id;
}

/** The advisory locks that claim emails (invariant 2): this first key, then the email id's hash. */
const claimLockSpace = "interview-api:send-email";

/** Sends a recorded email once (invariants 2 and 3). A failed send is recorded on the email and thrown, so the job is tried again. */
export async function sendQueuedEmail(ctx: DomainContext, mailer: Mailer | null, emailId: string) {
  const connection = await ctx.db.$client.reserve();
  try {
    const [claim] = await connection<{ claimed: boolean }[]>`
      select pg_try_advisory_lock(hashtext(${claimLockSpace}), hashtext(${emailId})) as claimed`;
    if (!claim!.claimed) throw new Error(`email ${emailId} is being sent by another run; this run will be tried again`);
    try {
      await sendUnlessSent(ctx, mailer, emailId);
    } finally {
      await connection`select pg_advisory_unlock(hashtext(${claimLockSpace}), hashtext(${emailId}))`;
    }
  } finally {
    connection.release();
  }
}

async function sendUnlessSent(ctx: DomainContext, mailer: Mailer | null, emailId: string) {
  const [email] = await ctx.db
    .select()
    .from(emails)
    .where(and(eq(emails.id, emailId), isNull(emails.sentAt)));
  if (!email) return;
  if (env.NODE_ENV === "development") log.info("email", { to: email.recipients, subject: email.subject, body: email.body });
  if (!mailer || email.recipients.length === 0) return;
  try {
    await mailer.send({ to: email.recipients, subject: email.subject, text: email.body });
  } catch (error) {
    metrics().emails.inc({ outcome: "failed" });
    log.warn("email not sent; it will be tried again", { emailId, error });
    await ctx.db
      .update(emails)
      .set({ error: String((error as Error).message).slice(0, 500) })
      .where(eq(emails.id, emailId));
    throw error;
  }
  metrics().emails.inc({ outcome: "sent" });
  await ctx.db.update(emails).set({ sentAt: ctx.clock.now(), error: null }).where(eq(emails.id, emailId));
}
