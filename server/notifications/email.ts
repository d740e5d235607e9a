/**
 * Email to company admins. Every message is recorded in the database; it is
 * sent through SMTP when SMTP_URL is set, and printed to the log in development.
 */
import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { emails, users } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { log } from "@/server/log";

export type Mailer = { send: (message: { to: string[]; subject: string; text: string }) => Promise<void> };

export function createMailer(smtpUrl = env.SMTP_URL): Mailer | null {
  if (!smtpUrl) return null;
  const transport = nodemailer.createTransport(smtpUrl);
  return { send: async ({ to, subject, text }) => void (await transport.sendMail({ from: env.EMAIL_FROM, to, subject, text })) };
}

export type AdminEmail = { companyId: string; kind: string; subject: string; body: string };

/** Records the email and sends it to the company's admins. Never throws: a failed send is recorded. */
export async function emailAdmins(ctx: DomainContext, mailer: Mailer | null, email: AdminEmail) {
  const admins = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, email.companyId), eq(users.role, "admin")));
  const recipients = admins.map((admin) => admin.email);
  const id = ctx.newId("email");
  await ctx.db.insert(emails).values({ id, ...email, recipients, createdAt: ctx.clock.now() });
  if (env.NODE_ENV === "development") log.info("email", { to: recipients, subject: email.subject, body: email.body });
  if (!mailer || recipients.length === 0) return;
  try {
    await mailer.send({ to: recipients, subject: email.subject, text: email.body });
    await ctx.db.update(emails).set({ sentAt: ctx.clock.now() }).where(eq(emails.id, id));
  } catch (error) {
    log.error("email not sent", { emailId: id, error });
    await ctx.db.update(emails).set({ error: String((error as Error).message).slice(0, 500) }).where(eq(emails.id, id));
  }
}
