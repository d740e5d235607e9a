/**
 * The delivery log's answers in Chromium, against the production build, the
 * real worker process and a real HTTPS receiver: what was sent (pretty, with
 * a copy of the exact bytes), which message is which (event id, candidate
 * name, search), resend links, the count before resending, texts in words,
 * what a member does not get, and the log and API keys on a phone.
 */
import type { Locator, Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { createApiKey, createUser } from "@/server/domain/accounts";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { webhookOffReason } from "@/server/webhooks/delivery/unsent-reasons";
import { describeInBrowser, expectText, reopen, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();

const deliveryEnv = delivery.env;
const server = useTestServer(test, deliveryEnv);
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: test.url, FILE_STORAGE_DIR: test.filesDir, ...deliveryEnv() }));
const open = useBrowser(server, "delivery-log");
const password = "correct horse battery staple";
let companyId: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;
let webhookId: string;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Log Ltd");
  interview = await makeInterview(test.ctx, companyId);
  const admin = await createUser(test.ctx, { companyId, email: "ada@log.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@log.example", name: "Max Member", role: "member", password });
  await createApiKey(test.ctx, { companyId, name: "ATS sync with a rather long descriptive name", createdByUserId: admin.id });
  await createApiKey(test.ctx, { companyId, name: "Reporting" });
  webhookId = (
    await createWebhook(
      test.ctx,
      companyId,
      { url: delivery.receiver.url("/hooks/log"), eventTypes: ["candidate.submitted", "candidate.ready"] },
      { allowTargets: [delivery.receiver.target] },
    )
  ).id;
});

/** The log's rows that show this text (an event id, a candidate id, a name). */
const rowsWith = (page: Page, text: string) => page.getByTestId("log-row").filter({ hasText: text });

async function search(page: Page, text: string) {
  await page.getByLabel("Event or candidate id").fill(text);
  await page.getByRole("button", { name: "Filter" }).click();
}

/** A `datetime-local` value (the browser's and this process's time zone are the machine's). */
function localInput(at: Date) {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function expectInsideViewport(locator: Locator, what: string) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(390);
}

let adaId: string;

describeInBrowser("the delivery log in the browser", () => {
  it("shows an admin the exact body sent (pretty, copied byte for byte), the event id and the candidate's name, for events and samples", async () => {
    await startWorker();
    const ada = await submitCandidate(test.ctx, interview, { email: "ada@example.com" });
    adaId = ada.id;
    const session = await open();
    const { page, screenshot, signIn, context } = session;
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn("ada@log.example", password);
    await page.goto(`/settings/webhooks/${webhookId}`);
    await rowsWith(page, ada.id).first().getByText("Delivered").waitFor();
    await rowsWith(page, ada.id).nth(1).getByText("Delivered").waitFor();
    const received = await delivery.receiver.waitFor(2);
    const row = rowsWith(page, ada.id).first();
    await row.getByText("Ada Lovelace").waitFor();
    const eventId = (await row.getByTestId("event-id").textContent())!.trim();
    expect(eventId).toMatch(/^evt_/);
    await expect(row.getByRole("button", { name: `Copy event id ${eventId}` }).isVisible()).resolves.toBe(true);
    await screenshot("log-with-event-ids-and-names");

    await row.getByRole("button", { name: "Attempts" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Request body").click();
    const shown = await dialog.getByTestId("request-body").textContent();
    const sent = received.find((request) => JSON.parse(request.body).id === eventId)!.body;
    expect(shown).toBe(JSON.stringify(JSON.parse(sent), null, 2));
    expect(shown).toContain('\n  "type": ');
    await dialog.getByRole("button", { name: "Copy body" }).click();
    await dialog.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sent);
    await screenshot("attempt-request-body-pretty");
    await page.keyboard.press("Escape");

    await page.getByLabel("Interview", { exact: true }).selectOption({ label: interview.title });
    await page.getByRole("button", { name: "Send sample" }).click();
    const outcome = page.getByTestId("message-outcome");
    await outcome.getByText("The address answered 200").waitFor();
    await outcome.getByText("Request body").click();
    const sample = await outcome.getByTestId("request-body").textContent();
    expect(JSON.parse(sample!)).toMatchObject({ test: true, candidate: { name: "Sam Sample" } });
    expect(sample).toContain('\n  "test": true');
    await outcome.getByRole("button", { name: "Copy body" }).waitFor();
    await rowsWith(page, "Sam Sample (sample)").first().waitFor();
    await screenshot("sample-outcome-with-body");
    await session.close();
  });

  it("finds a message by event id or candidate id prefix, and says what other input is not", async () => {
    await startWorker();
    const bob = await submitCandidate(test.ctx, interview, { email: "bob@example.com" });
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@log.example", password);
    await page.goto(`/settings/webhooks/${webhookId}`);
    await rowsWith(page, bob.id).first().getByText("Delivered").waitFor();
    const eventId = (await rowsWith(page, adaId).first().getByTestId("event-id").textContent())!.trim();

    await search(page, eventId);
    await page.getByTestId("log-row").filter({ hasNotText: eventId }).first().waitFor({ state: "detached" });
    await expect(page.getByTestId("log-row").count()).resolves.toBe(1);
    await rowsWith(page, eventId).getByText("Ada Lovelace").waitFor();
    await screenshot("search-by-event-id");

    await search(page, bob.id.slice(0, 9));
    await page.getByTestId("log-row").filter({ hasNotText: bob.id }).first().waitFor({ state: "detached" });
    await expect(rowsWith(page, bob.id).count()).resolves.toBe(2);
    await screenshot("search-by-candidate-id-prefix");

    await search(page, "bob@example.com");
    await expectText(page, "Search by the start of an event id (evt_…) or of a candidate id (cand_…).");
    await screenshot("search-refused");
    await session.close();
  });

  it("links a resent message to its resend, names failures in words, explains messages the webhook was turned off for, and counts before resending every failed one", async () => {
    await startWorker();
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@log.example", password);
    await page.goto(`/settings/webhooks/${webhookId}`);
    const original = rowsWith(page, adaId).first();
    const originalEvent = (await original.getByTestId("event-id").textContent())!.trim();
    delivery.receiver.answer(() => ({ status: 500, body: "receiver is down" }));
    await original.getByRole("button", { name: "Resend" }).click();
    await page
      .getByTestId("message-outcome")
      .getByText(/Attempt 1 failed: Answered with an error status \(HTTP 500\)/)
      .waitFor();
    const resentTo = rowsWith(page, originalEvent).filter({ has: page.getByTestId("resent-to") });
    await resentTo.waitFor();
    await screenshot("resent-link-and-error-in-words");
    await resentTo.getByTestId("resent-to").getByRole("button").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Resends").waitFor();
    await dialog.getByText("Answered with an error status").waitFor();
    expect(await dialog.innerText()).not.toContain("http_status");
    await screenshot("resend-opened-from-original");
    await page.keyboard.press("Escape");
    await rowsWith(page, originalEvent)
      .filter({ has: page.getByTestId("resends") })
      .waitFor();

    // A candidate whose first message waits for a retry holds the next one back; then the webhook is turned off.
    const received = delivery.receiver.received.length;
    const cy = await submitCandidate(test.ctx, interview, { email: "cy@example.com" });
    await rowsWith(page, cy.id).nth(1).waitFor();
    await rowsWith(page, cy.id).filter({ hasText: "Waiting" }).nth(1).waitFor();
    await delivery.receiver.waitFor(received + 1);
    await setWebhookEnabled(test.ctx, companyId, webhookId, false);
    await reopen(page);
    await rowsWith(page, cy.id).filter({ hasText: "Not sent" }).nth(1).waitFor();
    for (const index of [0, 1]) {
      await rowsWith(page, cy.id).nth(index).getByRole("button", { name: "Attempts" }).click();
      await dialog.getByText(webhookOffReason).waitFor();
      expect(await dialog.innerText()).not.toContain("Not attempted yet");
      await screenshot(`turned-off-message-${index + 1}`);
      await page.keyboard.press("Escape");
      // The open message is in the address: closing takes it out (reopening the page must not open it again).
      await page.waitForURL((url) => !url.search.includes("message="));
    }

    await setWebhookEnabled(test.ctx, companyId, webhookId, true);
    delivery.receiver.answer(() => ({ status: 200 }));
    await reopen(page);
    const [latest] = await test.handle.sql<Array<{ failed: number }>>`
      select count(*)::int as failed from (
        select distinct on (event_id) status from webhook_messages where webhook_id = ${webhookId} order by event_id, seq desc
      ) latest where status = 'failed'`;
    const failed = latest!.failed;
    expect(failed).toBeGreaterThanOrEqual(3);
    await page.getByLabel("Resend every failed message since").fill(localInput(new Date(Date.now() - 3600_000)));
    await page.getByRole("button", { name: "Resend failed…" }).click();
    const confirm = page.getByRole("dialog", { name: "Resend failed messages?" });
    await confirm.getByTestId("resend-count").getByText(`${failed} failed messages since`).waitFor();
    await screenshot("resend-failed-count-before-confirming");
    await confirm.getByRole("button", { name: `Resend ${failed}` }).click();
    await expectText(page, `${failed} messages queued again.`);
    await screenshot("resend-failed-done");
    await session.close();
  });

  it("gives a member the log without any body, and lays log rows out as cards on a phone", async () => {
    const session = await open("phone");
    const { page, screenshot, signIn, trpc } = session;
    await signIn("max@log.example", password);
    await page.goto(`/settings/webhooks/${webhookId}`);
    const rows = page.getByTestId("log-row");
    await rows.first().waitFor();
    for (const index of [0, 1, 2]) {
      await expectInsideViewport(rows.nth(index).getByTestId("log-status"), `status of log row ${index + 1}`);
      await expectInsideViewport(rows.nth(index).getByTestId("log-actions"), `actions of log row ${index + 1}`);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot("member-log-on-phone");

    await rows.filter({ hasText: "Delivered" }).first().getByRole("button", { name: "Attempts" }).click();
    await page.getByRole("dialog").getByText("Attempt 1").first().waitFor();
    expect(await page.getByRole("dialog").getByText("Request body").count()).toBe(0);
    await screenshot("member-attempts-without-body");
    const messages = await trpc("webhooks.messages", { id: webhookId }, "query");
    for (const message of messages.body.result.data.messages.slice(0, 5)) {
      const answer = await trpc("webhooks.message", { messageId: message.id }, "query");
      expect(answer.status).toBe(200);
      for (const attempt of answer.body.result.data.attempts) {
        expect(attempt).not.toHaveProperty("requestBody");
        expect(attempt).not.toHaveProperty("requestBodyBytes");
      }
      expect(JSON.stringify(answer.body)).not.toContain("api_version");
    }
    expect((await trpc("webhooks.countFailedSince", { id: webhookId, since: new Date().toISOString() }, "query")).status).toBe(403);
    await session.close();
  });

  it("keeps the status and actions of log rows and API keys on an admin's phone screen", async () => {
    const session = await open("phone");
    const { page, screenshot, signIn } = session;
    await signIn("ada@log.example", password);
    await page.goto(`/settings/webhooks/${webhookId}`);
    const rows = page.getByTestId("log-row");
    await rows.first().waitFor();
    for (const index of [0, 1, 2]) {
      await expectInsideViewport(rows.nth(index).getByTestId("log-status"), `status of log row ${index + 1}`);
      await expectInsideViewport(rows.nth(index).getByRole("button", { name: "Resend" }), `Resend of log row ${index + 1}`);
      await expectInsideViewport(rows.nth(index).getByRole("button", { name: "Attempts" }), `Attempts of log row ${index + 1}`);
    }
    await rows.first().scrollIntoViewIfNeeded();
    await screenshot("admin-log-rows-on-phone");

    await page.goto("/settings/api-keys");
    const keys = page.getByTestId("api-key-row");
    await keys.first().waitFor();
    await expect(keys.count()).resolves.toBe(2);
    for (const index of [0, 1]) {
      await expectInsideViewport(keys.nth(index).getByTestId("api-key-state"), `state of API key ${index + 1}`);
      await expectInsideViewport(keys.nth(index).getByRole("button", { name: /^Revoke / }), `Revoke of API key ${index + 1}`);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot("api-keys-on-phone");
    await session.close();
  });
});
