/**
 * Sending a recorded admin email through its job. Two runs of the job at once
 * (a job taken over while its first run is still talking to SMTP) send it
 * once; when the run holding the email dies before its send is confirmed, a
 * run after its lease sends it (on the test's clock). SMTP is a fake that holds each send until the test lets
 * it go.
 */
import { eq } from "drizzle-orm";
import type { JobHelpers } from "graphile-worker";
import { expect, it } from "vitest";
import { emails } from "@/db/schema";
import { emailLeaseMs, type Mailer } from "@/server/notifications/email";
import { sendEmail } from "@/worker/tasks/send-email";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";

const test = useTestDatabase();

/** A fake SMTP server that takes each message and answers only when released. */
function heldSmtp() {
  const taken: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const mailer: Mailer = {
    send: async (message) => {
      taken.push(message.subject);
      await released;
    },
  };
  return { mailer, taken, release };
}

async function recordedEmail(subject: string) {
  const companyId = await makeCompany(test.ctx, subject);
  const id = test.ctx.newId("email");
  await test.ctx.db
    .insert(emails)
    .values({ id, companyId, kind: "webhook_failing", recipients: ["admin@example.com"], subject, body: "…", createdAt: test.clock.now() });
  return id;
}

/** One run of the send-email task, as graphile-worker starts it. */
const runJob = async (mailer: Mailer, emailId: string) => {
  await sendEmail({ ctx: test.ctx, sql: test.handle.sql, client: null as never, mailer })({ emailId }, {} as JobHelpers);
};

/** How a run has ended so far: its error message, "done", or "running" after a second. */
const outcomeSoon = (run: Promise<void>) =>
  Promise.race([
    run.then(
      () => "done",
      (error: Error) => error.message,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve("running"), 1_000)),
  ]);

it("is sent once when two runs of its job overlap", async () => {
  const emailId = await recordedEmail("Overlap");
  const smtp = heldSmtp();
  const first = runJob(smtp.mailer, emailId);
  await expect.poll(() => smtp.taken).toEqual(["Overlap"]);

  const second = runJob(smtp.mailer, emailId);
  // The second run sends nothing and fails, so graphile-worker tries it again later.
  expect(await outcomeSoon(second)).toMatch(/is being sent by another run/);
  smtp.release();
  await first;
  expect(smtp.taken).toEqual(["Overlap"]);

  // The retry finds it sent.
  await runJob(smtp.mailer, emailId);
  expect(smtp.taken).toEqual(["Overlap"]);
  const [email] = await test.ctx.db.select().from(emails).where(eq(emails.id, emailId));
  expect(email!.sentAt).not.toBeNull();
});

it("is sent by a run after the lease when the run holding it dies before its send is recorded", async () => {
  const emailId = await recordedEmail("Died");
  // Its SMTP never answers: the run is as good as dead.
  const dying = heldSmtp();
  void runJob(dying.mailer, emailId);
  await expect.poll(() => dying.taken).toEqual(["Died"]);

  const smtp = heldSmtp();
  smtp.release();
  // Within the lease, the email stays the dead run's.
  test.clock.advance(emailLeaseMs - 1_000);
  expect(await outcomeSoon(runJob(smtp.mailer, emailId))).toMatch(/is being sent by another run/);
  // After it, the next run sends it.
  test.clock.advance(1_000);
  expect(await outcomeSoon(runJob(smtp.mailer, emailId))).toBe("done");
  expect(smtp.taken).toEqual(["Died"]);
  const [email] = await test.ctx.db.select().from(emails).where(eq(emails.id, emailId));
  expect(email!.sentAt).not.toBeNull();
  expect(email!.claimedUntil).toBeNull();
});
