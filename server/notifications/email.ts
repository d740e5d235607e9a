/**
 * Email to company admins, through an outbox: the email is recorded in the
 * transaction of the change it reports, with the job that sends it, so a crash
 * can delay it but never lose it. The job sends through SMTP when SMTP_URL is
 * set (printing it to the log in development) and is retried until it goes.
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

/**
 * Sends a recorded email once. A failed send is recorded on the email and
 * thrown, so the job is tried again; an email already sent is not sent again.
 */
export async function sendQueuedEmail(ctx: DomainContext, mailer: Mailer | null, emailId: string) {
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
