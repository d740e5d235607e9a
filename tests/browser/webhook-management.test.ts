/**
 * In Chromium against the production build, the real worker process and a
 * real HTTPS receiver: which webhook is this (name, description), is it
 * working (each health state), and what happens if I click this (turning
 * off, sending past events, ending the previous secret, a deleted webhook,
 * an address that does not resolve).
 */
import { beforeAll, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { maxWebhooksPerCompany } from "@/server/webhooks/admin/settings-schema";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { type BrowserSession, describeInBrowser, expectText, reopen, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { completeSteps, eventsOf, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { verifySignature } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();

const deliveryEnv = delivery.env;
const server = useTestServer(test, deliveryEnv);
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: test.url, FILE_STORAGE_DIR: test.filesDir, ...deliveryEnv() }));
const open = useBrowser(server, "webhook-management");
const password = "correct horse battery staple";
const webhookPath = "/hooks/ats?token=private-part";
let companyId: string;
let interviewTitle: string;
let pastCandidateId: string;
let webhookUrl: string;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Hooks Ltd");
  const interview = await makeInterview(test.ctx, companyId);
  interviewTitle = interview.title;
  await createUser(test.ctx, { companyId, email: "ada@hooks.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@hooks.example", name: "Max Member", role: "member", password });
  // A candidate from before the webhook exists: the history is fanned out to no webhook.
  test.clock.set(new Date());
  const candidate = await startCandidate(test.ctx, interview.id, { email: "past@example.com" });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  await fanOutCompany(test.ctx, companyId);
  pastCandidateId = candidate.id;
});

const health = (session: BrowserSession) => session.page.getByTestId("webhook-health");

async function sendSample(session: BrowserSession) {
  await session.page.getByLabel("Interview", { exact: true }).selectOption({ label: interviewTitle });
  await session.page.getByRole("button", { name: "Send sample" }).click();
}

describeInBrowser("webhook management", () => {
  it("an admin names a webhook, sees no deliveries yet, sends it the past events it missed (counted first), and they arrive in history order", async () => {
    await startWorker();
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await page.getByRole("link", { name: "Add webhook" }).click();
    await page.getByLabel("Address").fill(delivery.receiver.url(webhookPath));
    await page.getByLabel("Name (optional)").fill("ATS sync");
    await page.getByLabel("Description (optional)").fill("Feeds the hiring board. Ask Ops before changing it.");
    await screenshot("new-webhook-with-name");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.waitForURL(/\/settings\/webhooks\/wh_/);
    webhookUrl = page.url();
    await page.getByRole("heading", { name: "ATS sync" }).waitFor();
    await expectText(page, "Feeds the hiring board. Ask Ops before changing it.");
    expect(await page.getByTestId("webhook-address").innerText()).toBe(delivery.receiver.url(webhookPath));
    await page.getByText("No deliveries yet", { exact: true }).waitFor();
    await expect(health(session).innerText()).resolves.toBe("No message has been delivered yet.");
    expect(await page.getByText(/does not resolve/).count()).toBe(0); // the receiver's target is allowed: no warning
    await screenshot("state-no-deliveries-yet");

    await page.getByRole("button", { name: "Send past events…" }).click();
    const dialog = page.getByRole("dialog");
    await dialog
      .getByTestId("backfill-count")
      .getByText(/^3 events since .* match this webhook and were never sent to it\.$/)
      .waitFor();
    await screenshot("backfill-counted");
    await dialog.getByRole("button", { name: "Send 3 events" }).click();
    await expectText(page, "3 events queued for this webhook.");
    const arrived = await delivery.receiver.waitFor(3);
    const history = await eventsOf(test.ctx, pastCandidateId);
    expect(arrived.map((request) => JSON.parse(request.body).id)).toEqual(history.map((event) => event.id));
    expect(arrived.map((request) => request.path)).toEqual(Array(3).fill(webhookPath));
    // After past events are queued the page follows them every 2 s, not every 15 s.
    await page.getByText("Healthy", { exact: true }).waitFor({ timeout: 8_000 });
    await expect(health(session).innerText()).resolves.toMatch(/^The latest delivery succeeded \(.+\)\.$/);
    await screenshot("backfill-delivered-healthy");

    await page.getByRole("button", { name: "Send past events…" }).click();
    await dialog.getByText(/No event since .* is missing: nothing to send\./).waitFor();
    await expect(dialog.getByRole("button", { name: "Send", exact: true }).isDisabled()).resolves.toBe(true);
    await page.keyboard.press("Escape");
    await session.close();
  });

  it("an admin switches the signature check between Node.js, Python and Go, and nothing is cut off", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await page.goto(webhookUrl);
    await page.getByText("How receivers check the signature").click();
    const snippet = page.getByTestId("verification-snippet");
    await expect(snippet.innerText()).resolves.toContain("export function isSignedByUs(rawBody, signatureHeader, secret)");
    for (const [language, signature] of [
      ["Python", "def is_signed_by_us(raw_body: bytes, signature_header: str, secret: str) -> bool:"],
      ["Go", "func IsSignedByUs(rawBody []byte, signatureHeader, secret string) bool {"],
    ] as const) {
      await page.getByRole("tab", { name: language }).click();
      await expect(snippet.innerText()).resolves.toContain(signature);
      const fits = await snippet.evaluate((element) => element.scrollWidth <= element.clientWidth);
      expect(fits, `${language} snippet wraps inside its box`).toBe(true);
      await screenshot(`snippet-${language.toLowerCase()}`);
    }
    await session.close();
  });

  it("an admin replaces the secret, then stops the previous one after a confirmation, and the next message carries one signature", async () => {
    await startWorker();
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await page.goto(webhookUrl);
    await page.getByRole("button", { name: "Replace secret" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Replace secret" }).click();
    await expectText(page, /The previous secret keeps signing too until/);
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
    await page.getByRole("button", { name: "Stop signing with the previous secret now" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Receivers still checking with the previous secret will reject them").waitFor();
    await screenshot("expire-previous-secret-confirmation");
    await dialog.getByRole("button", { name: "Stop signing with the previous secret" }).click();
    await page.getByRole("button", { name: "Stop signing with the previous secret now" }).waitFor({ state: "detached" });
    expect(await page.getByText(/The previous secret keeps signing too/).count()).toBe(0);
    await expect(page.getByRole("status").filter({ hasText: "previous secret" }).innerText()).resolves.toBe(
      "The previous secret stopped signing: messages now carry one signature, made with the new secret.",
    );
    await screenshot("previous-secret-stopped");

    const before = delivery.receiver.received.length;
    await sendSample(session);
    const [sample] = (await delivery.receiver.waitFor(before + 1)).slice(before);
    expect(verifySignature(String(sample!.headers["service-signature"]), sample!.body, secret)).toMatchObject({ valid: true, values: 1 });
    await session.close();
  });

  it("an admin sees retrying while a retry is pending, failing once the run reaches the alert threshold, turns it off after a confirmation with the count, and on again", async () => {
    await startWorker();
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await page.goto(webhookUrl);
    delivery.receiver.answer(() => ({ status: 500, body: "down for maintenance" }));
    await sendSample(session);
    const outcome = page.getByTestId("message-outcome");
    await outcome.getByText(/Attempt 1 failed/).waitFor();
    // A failed try that will be retried is not a failed message.
    await expect(outcome.innerText()).resolves.toMatch(/^Retrying — next try at .+\. Attempt 1 failed: Answered with an error status \(HTTP 500\)\./);
    expect(await outcome.getByText("Failed", { exact: true }).count()).toBe(0);
    await screenshot("sample-retrying");
    await reopen(page);
    await page.getByText("Retrying", { exact: true }).waitFor();
    await expect(health(session).innerText()).resolves.toMatch(
      /^Retrying since .+: the latest tries failed and are being retried; no message has failed for good\.$/,
    );
    await screenshot("state-retrying");

    // A day passes without a success (the run's start moved back: the server's clock is the real one).
    await test.handle.sql`update webhooks set failing_since = failing_since - interval '25 hours' where company_id = ${companyId}`;
    await reopen(page);
    await page.getByText("Failing", { exact: true }).waitFor();
    await expect(health(session).innerText()).resolves.toMatch(/^Failing since .+\. Unless a delivery succeeds, it is turned off at .+\.$/);
    await screenshot("state-failing-since");

    // The failing sample waits, and so may a message of an earlier test still being retried: the page says how many.
    const webhookId = webhookUrl.split("/").pop()!;
    const [{ waiting }] = await test.handle.sql<[{ waiting: number }]>`
      select count(*)::int as waiting from webhook_messages where webhook_id = ${webhookId} and status = 'pending'`;
    expect(waiting).toBeGreaterThanOrEqual(1);
    const messages = waiting === 1 ? "1 waiting message" : `${waiting} waiting messages`;
    await page.getByRole("button", { name: "Turn off" }).click();
    const dialog = page.getByRole("dialog");
    await dialog
      .getByText(`${messages} will be marked failed; you can resend ${waiting === 1 ? "it" : "them"} from the delivery log later, once the webhook is on.`, {
        exact: false,
      })
      .waitFor();
    await screenshot("turn-off-confirmation");
    await dialog.getByRole("button", { name: "Turn off" }).click();
    await expectText(
      page,
      `The webhook is off. ${messages} ${waiting === 1 ? "was" : "were"} marked failed; you can resend ${waiting === 1 ? "it" : "them"} from the delivery log once the webhook is on again.`,
    );
    await page.getByText("Off", { exact: true }).waitFor();
    await expect(health(session).innerText()).resolves.toBe("This webhook is off. Turned off by Ada Admin.");
    await expect(page.getByRole("button", { name: "Send past events…" }).isDisabled()).resolves.toBe(true);
    await screenshot("state-off-with-count");

    delivery.receiver.answer(() => ({ status: 200 }));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("No deliveries yet", { exact: true }).waitFor();
    await expect(health(session).innerText()).resolves.toBe("No message has been delivered since it was turned on again.");
    await screenshot("state-turned-on-again");
    await session.close();
  });

  it("an admin saves an address whose host name does not resolve and is warned; a deleted webhook's page says so", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await page.goto("/settings/webhooks/new");
    // `.con` is no top-level domain: no DNS resolves it.
    await page.getByLabel("Address").fill("https://hooks.example.con/in");
    await page.getByLabel("Name (optional)").fill("Typo hook");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.waitForURL(/\/settings\/webhooks\/wh_/);
    const typoUrl = page.url();
    await expectText(page, "Saved. hooks.example.con does not resolve yet; messages will fail until it does.");
    await page.getByRole("heading", { name: "Typo hook" }).waitFor();
    await screenshot("address-does-not-resolve-warning");

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete webhook" }).click();
    await page.waitForURL(/\/settings\/webhooks$/);
    await expect(page.getByRole("status").filter({ hasText: "deleted" }).innerText()).resolves.toContain("Webhook “Typo hook” deleted.");
    await screenshot("webhook-deleted-notice");
    await page.goto(typoUrl);
    await expectText(page, "This webhook was deleted, or never existed");
    expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    await screenshot("deleted-webhook-page");
    await page.getByRole("link", { name: "See your webhooks" }).click();
    await page.waitForURL(/\/settings\/webhooks$/);
    await page.getByRole("link", { name: "ATS sync" }).waitFor();
    await session.close();
  });

  it("a member sees the name, description and health in the list and on the page, with the address masked", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("max@hooks.example", password);
    const masked = `https://${delivery.receiver.target}/…`;
    const item = page.getByRole("listitem").filter({ hasText: "ATS sync" });
    await item.getByRole("link", { name: "ATS sync" }).waitFor();
    await item.getByText(masked, { exact: true }).waitFor();
    await item.getByText("Feeds the hiring board. Ask Ops before changing it.").waitFor();
    await item.getByText("No deliveries yet", { exact: true }).waitFor();
    await expect(item.getByTestId("webhook-health").innerText()).resolves.toBe("No message has been delivered since it was turned on again.");
    await screenshot("member-list-with-name");
    await item.getByRole("link", { name: "ATS sync" }).click();
    await page.getByRole("heading", { name: "ATS sync" }).waitFor();
    expect(await page.getByTestId("webhook-address").innerText()).toBe(masked);
    await expectText(page, "Feeds the hiring board. Ask Ops before changing it.");
    expect(await page.content()).not.toContain("private-part");
    expect(await page.getByRole("button", { name: "Send past events…" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Turn off" }).count()).toBe(0);
    await screenshot("member-detail-with-name");
    const [webhook] = await test.handle.sql<{ id: string }[]>`select id from webhooks where company_id = ${companyId}`;
    for (const [procedure, input, kind] of [
      ["webhooks.countBackfill", { id: webhook!.id, since: new Date(0).toISOString() }, "query"],
      ["webhooks.backfill", { id: webhook!.id, since: new Date(0).toISOString() }, "mutation"],
      ["webhooks.expirePreviousSecret", { id: webhook!.id }, "mutation"],
    ] as const) {
      expect((await session.trpc(procedure, input, kind)).status, procedure).toBe(403);
    }
    await session.close();
  });

  it("the new-webhook page says how many of the 10 webhooks are used before the form is filled, and that the limit is reached instead of the form", async () => {
    const fullCompanyId = await makeCompany(test.ctx, "Full Ltd");
    await createUser(test.ctx, { companyId: fullCompanyId, email: "ada@full.example", name: "Ada Admin", role: "admin", password });
    const addWebhook = (n: number) => createWebhook(test.ctx, fullCompanyId, { url: `https://hooks.example.com/${n}` }, { allowTargets: [] });
    for (let n = 1; n < maxWebhooksPerCompany; n++) await addWebhook(n);
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@full.example", password);
    await page.goto("/settings/webhooks/new");
    await expectText(page, `9 of ${maxWebhooksPerCompany} webhooks used: this is the last one your company can add.`);
    await page.getByLabel("Address").waitFor();
    await screenshot("new-webhook-last-one");

    await addWebhook(maxWebhooksPerCompany);
    await page.goto("/settings/webhooks/new");
    await expectText(page, `Your company has all ${maxWebhooksPerCompany} of its webhooks. Delete one to add another.`);
    expect(await page.getByLabel("Address").count()).toBe(0);
    await screenshot("new-webhook-limit-reached");
    await session.close();
  });
});
