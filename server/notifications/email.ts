/**
 * Email to company admins, through an outbox.
 *
 * 1. The email is recorded in the transaction of the change it reports, with
 *    the job that sends it, so a crash can delay it but never lose it. The
 *    job sends through SMTP when SMTP_URL is set (printing it to the log in
 *    development) and is retried until it goes.
 * 2. A run claims the email before sending it: one UPDATE sets a lease
 *    (`claimed_until`) on an unsent email that no lease holds, so two runs of
 *    the job never both send it (graphile-worker can run a job again while a
 *    run it took for dead is still talking to SMTP). A run that finds it
 *    claimed sends nothing and fails, so the job is tried again later and then
 *    finds the email sent, or sends it once the lease is given back or over.
 * 3. The lease outlasts any send: SMTP's own timeouts end a send well within
 *    it. A run that dies while holding it leaves the email to a run after the
 *    lease: at least once, never lost. A run that dies after SMTP took the
 *    email and before `sent_at` is written has it sent again.
 */
import { and, eq, isNull, lte, or } from "drizzle-orm";
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
  // A send ends well within an email's lease (emailLeaseMs); nodemailer's own socket timeout is 10 minutes.
  const transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
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

/** How long a run holds an email it sends (invariant 3). */
export const emailLeaseMs = 10 * 60_000;

/** Sends a recorded email once (invariants 2 and 3). A failed send is recorded on the email and thrown, so the job is tried again. */
export async function sendQueuedEmail(ctx: DomainContext, mailer: Mailer | null, emailId: string) {
  const now = ctx.clock.now();
  const [email] = await ctx.db
    .update(emails)
    .set({ claimedUntil: new Date(now.getTime() + emailLeaseMs) })
    .where(and(eq(emails.id, emailId), isNull(emails.sentAt), or(isNull(emails.claimedUntil), lte(emails.claimedUntil, now))))
    .returning();
  if (!email) {
    const [unsent] = await ctx.db
      .select({ id: emails.id })
      .from(emails)
      .where(and(eq(emails.id, emailId), isNull(emails.sentAt)));
    if (unsent) throw new Error(`email ${emailId} is being sent by another run; this run will be tried again`);
    return;
  }
  if (env.NODE_ENV === "development") log.info("email", { to: email.recipients, subject: email.subject, body: email.body });
  if (!mailer || email.recipients.length === 0) {
    await ctx.db.update(emails).set({ claimedUntil: null }).where(eq(emails.id, emailId));
    return;
  }
  try {
    await mailer.send({ to: email.recipients, subject: email.subject, text: email.body });
  } catch (error) {
    metrics().emails.inc({ outcome: "failed" });
    log.warn("email not sent; it will be tried again", { emailId, error });
    await ctx.db
      .update(emails)
      .set({ error: String((error as Error).message).slice(0, 500), claimedUntil: null })
      .where(eq(emails.id, emailId));
    throw error;
  }
  metrics().emails.inc({ outcome: "sent" });
  await ctx.db.update(emails).set({ sentAt: ctx.clock.now(), error: null, claimedUntil: null }).where(eq(emails.id, emailId));
}
