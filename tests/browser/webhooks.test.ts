/**
 * In Chromium against the production build, the real worker process and a
 * real HTTPS receiver: an admin sets up a webhook, sends a sample, reads the
 * log and resends; a team member sees health only.
 */
import { beforeAll, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { type BrowserSession, describeInBrowser, expectText, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { verifySignature } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();

const deliveryEnv = delivery.env;
const server = useTestServer(test, deliveryEnv);
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: test.url, FILE_STORAGE_DIR: test.filesDir, ...deliveryEnv() }));
const open = useBrowser(server, "webhooks");
const password = "correct horse battery staple";
let interviewTitle: string;
let webhookPath: string;

beforeAll(async () => {
  const companyId = await makeCompany(test.ctx, "Hooks Ltd");
  interviewTitle = (await makeInterview(test.ctx, companyId)).title;
  await createUser(test.ctx, { companyId, email: "ada@hooks.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@hooks.example", name: "Max Member", role: "member", password });
  // Another company's webhook: nobody here may see it.
  const otherCompany = await makeCompany(test.ctx, "Other Co");
  await createUser(test.ctx, { companyId: otherCompany, email: "eve@other.example", name: "Eve", role: "admin", password });
});

async function sendSample(session: BrowserSession) {
  const { page } = session;
  await page.getByLabel("Interview", { exact: true }).selectOption({ label: interviewTitle });
  await page.getByRole("button", { name: "Send sample" }).click();
}

describeInBrowser("webhooks in the browser", () => {
  it("an admin adds a webhook, sends a sample that arrives signed, sees it delivered, then a failing resend with its error class", async () => {
    await startWorker();
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await expectText(page, "No webhooks yet");
    await expectText(page, "0 of 10 webhooks used");
    await screenshot("webhooks-empty");

    await page.getByRole("link", { name: "Add webhook" }).click();
    const address = page.getByLabel("Address");
    await address.fill("http://hooks.example.com/in");
    await expectText(page, "The address must start with https://.");
    await address.fill("https://10.0.0.1/in");
    await expectText(page, "The address must use a host name, not an IP address.");
    await screenshot("webhook-address-checked-as-typed");
    webhookPath = "/hooks/interviews?token=private-part";
    await address.fill(delivery.receiver.url(webhookPath));
    await page.getByLabel(/Scored/).uncheck();
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.waitForURL(/\/settings\/webhooks\/wh_/);
    await expectText(page, "Tries per hour");
    await screenshot("webhook-created");

    await sendSample(session);
    const outcome = page.getByTestId("message-outcome");
    await outcome.getByText("The address answered 200").waitFor();
    const [sample] = await delivery.receiver.waitFor(1);
    expect(sample!.path).toBe(webhookPath);
    expect(JSON.parse(sample!.body)).toMatchObject({ test: true, type: "candidate.ready" });

    await page.getByRole("button", { name: "Reveal secret" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const signature = verifySignature(String(sample!.headers["service-signature"]), sample!.body, secret);
    expect(signature.valid).toBe(true);
    expect(Math.abs(signature.timestamp - Date.now() / 1000)).toBeLessThan(300);

    const firstRow = page.getByTestId("log-row").first();
    await firstRow.getByText("Delivered").waitFor();
    await page.getByTestId("chart-succeeded").filter({ hasText: /^1$/ }).waitFor();
    await screenshot("sample-delivered");

    delivery.receiver.answer(() => ({ status: 500, body: "receiver is down" }));
    await firstRow.getByRole("button", { name: "Resend" }).click();
    // The sample's outcome stays on the page beside the resend's.
    const resendOutcome = page.getByTestId("message-outcome").filter({ hasText: /Attempt 1 failed: Answered with an error status \(HTTP 500\)/ });
    await resendOutcome.waitFor();
    // The message is retried, so it has not failed.
    await expect(resendOutcome.innerText()).resolves.toMatch(/^Retrying — next try at .+\./);
    expect(await resendOutcome.getByText("Failed", { exact: true }).count()).toBe(0);
    await delivery.receiver.waitFor(2);
    await screenshot("resend-failed");

    // A resend is a new log entry (newest first), waiting for its retry.
    await page.getByTestId("log-row").nth(1).waitFor();
    const resentRow = page.getByTestId("log-row").first();
    await resentRow.getByText("Waiting").waitFor();
    await resentRow.getByRole("button", { name: "Attempts" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Answered with an error status").waitFor();
    await dialog.getByText("Response body (excerpt)").click();
    await dialog.getByText("receiver is down").waitFor();
    await dialog.getByText("Request headers").click();
    await expect(dialog.innerText()).resolves.toMatch(/service-signature: t=\d+,v1=[0-9a-f]{64}/i);
    await screenshot("attempts-with-body");
    await page.keyboard.press("Escape");
    delivery.receiver.answer(() => ({ status: 200 }));

    await page.getByRole("button", { name: "7 days" }).click();
    await page.getByTestId("chart-failed").filter({ hasText: /^1$/ }).waitFor();
    await screenshot("chart-7-days");
    await session.close();
  });

  it("a member sees the webhook's health and a masked address, and cannot reach keys, secrets, full addresses or bodies", async () => {
    const session = await open("phone");
    const { page, screenshot, signIn, trpc } = session;
    await signIn("max@hooks.example", password);
    const masked = `https://${delivery.receiver.target}/…`;
    await page.getByRole("link", { name: masked }).waitFor();
    await expectText(page, /Tries succeeded \(24 h\)/);
    await screenshot("member-webhooks-phone");
    const listText = await page.locator("body").innerText();
    expect(listText).not.toContain(webhookPath);
    expect(listText).not.toContain("Add webhook");

    await page.getByRole("link", { name: masked }).click();
    await expectText(page, "Tries per hour");
    await page.getByTestId("log-row").first().waitFor();
    await screenshot("member-webhook-detail-phone");
    // Readable on a phone: wide tables scroll inside their box, the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.getByRole("button", { name: "Reveal secret" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Resend" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send sample" }).count()).toBe(0);
    await page.getByTestId("log-row").first().getByRole("button", { name: "Attempts" }).click();
    await page.getByRole("dialog").getByText("Answered with an error status").waitFor();
    const dialogText = await page.getByRole("dialog").innerText();
    expect(dialogText).not.toContain("receiver is down");
    expect(dialogText).not.toMatch(/service-signature/i);
    expect(dialogText).not.toContain(webhookPath);
    await screenshot("member-attempts-phone");
    const pageHtml = await page.content();
    expect(pageHtml).not.toContain("private-part");
    expect(pageHtml).not.toContain("whsec_");

    const list = await trpc("webhooks.list", undefined, "query");
    expect(list.status).toBe(200);
    const [webhook] = list.body.result.data.webhooks;
    expect(webhook).toMatchObject({ address: masked, previousSecretValidUntil: null });
    expect(JSON.stringify(list.body)).not.toContain("private-part");
    const messages = await trpc("webhooks.messages", { id: webhook.id }, "query");
    const message = await trpc("webhooks.message", { messageId: messages.body.result.data.messages[0].id }, "query");
    expect(message.status).toBe(200);
    for (const attempt of message.body.result.data.attempts) {
      expect(Object.keys(attempt).sort()).toEqual(["address", "attempt", "durationMs", "errorClass", "responseStatus", "startedAt", "succeeded"]);
      expect(attempt.address).toBe(masked);
    }
    for (const [procedure, input] of [
      ["webhooks.revealSecret", { id: webhook.id }],
      ["webhooks.rotateSecret", { id: webhook.id }],
      ["webhooks.update", { id: webhook.id, changes: { eventTypes: ["candidate.ready"] } }],
      ["webhooks.setEnabled", { id: webhook.id, enabled: false }],
      ["webhooks.delete", { id: webhook.id }],
      ["webhooks.resend", { messageId: messages.body.result.data.messages[0].id }],
      ["webhooks.sendSample", { id: webhook.id, interviewId: "intv_x" }],
      ["apiKeys.create", { name: "member key" }],
    ] as const) {
      const refused = await trpc(procedure, input, "mutation");
      expect(refused.status, procedure).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain("whsec_");
    }
    expect((await trpc("apiKeys.list", undefined, "query")).status).toBe(403);
    expect((await trpc("webhooks.searchInterviews", { query: "" }, "query")).status).toBe(403);
    await session.close();
  });

  it("an admin scopes the webhook to chosen interviews, replaces its secret, and turns it off and on", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@hooks.example", password);
    await page.getByRole("link", { name: delivery.receiver.url(webhookPath) }).click();
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Only the interviews I choose").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expectText(page, "Choose at least one interview, or all interviews.");
    await page.getByLabel("Search interviews").fill(interviewTitle.slice(0, 5));
    await page.getByRole("checkbox", { name: new RegExp(interviewTitle) }).check();
    await screenshot("edit-choose-interviews");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(/\/settings\/webhooks\/wh_[^/]+$/);
    await expectText(page, `Submitted, Ready, Status changed · ${interviewTitle}`);

    await page.getByRole("button", { name: "Reveal secret" }).click();
    const before = (await page.getByTestId("webhook-secret").textContent())!.trim();
    await page.getByRole("button", { name: "Replace secret" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Replace secret" }).click();
    await expectText(page, /The previous secret keeps signing too until/);
    const after = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    await screenshot("secret-replaced");

    await page.getByRole("button", { name: "Turn off" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Turn off" }).click();
    await page.getByText("Off", { exact: true }).waitFor();
    await expect(page.getByRole("button", { name: "Send sample" }).isDisabled()).resolves.toBe(true);
    await expectText(page, "This webhook is off. Turned off by Ada Admin.");
    await screenshot("webhook-turned-off");
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByRole("button", { name: "Turn off" }).waitFor();
    await expect(page.getByRole("button", { name: "Send sample" }).isDisabled()).resolves.toBe(false);
    await session.close();
  });

  it("another company's admin can neither see nor act on this company's webhook", async () => {
    const session = await open();
    await session.signIn("eve@other.example", password);
    await expectText(session.page, "No webhooks yet");
    const [webhook] = await test.handle.sql`select id from webhooks`;
    expect((await session.trpc("webhooks.get", { id: webhook!.id }, "query")).status).toBe(404);
    expect((await session.trpc("webhooks.revealSecret", { id: webhook!.id }, "mutation")).status).toBe(404);
    expect((await session.trpc("webhooks.chart", { id: webhook!.id, range: "24h" }, "query")).status).toBe(404);
    await session.close();
  });
});
