/**
 * In Chromium against the production build: an admin adds custom headers and
 * conditions to a webhook, sees the values once, then masked, reveals and
 * edits them (a value left empty keeps the saved one); a member sees the
 * conditions in words and no header at all.
 */
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { revealWebhookHeaders } from "@/server/webhooks/admin/webhook-settings";
import { maskedHeaderValue } from "@/server/webhooks/delivery/header-rules";
import { type BrowserSession, describeInBrowser, expectText, reopen, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const delivery = useProcessReceiver();
const server = useTestServer(test, delivery.env);
const open = useBrowser(server, "webhook-headers-and-conditions");
const password = "correct horse battery staple";
const apiKey = "n8n-header-auth-3f9c2a7b";
let companyId: string;
let webhookPath: string;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Headers Ltd");
  await makeInterview(test.ctx, companyId);
  await createUser(test.ctx, { companyId, email: "ada@headers.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@headers.example", name: "Max Member", role: "member", password });
});

/** Saves the page to the test's artifacts with TEST_SCREENSHOTS=1. */
const keep = (session: BrowserSession, name: string, size: string) => session.screenshot(`${name}-${size}`);

const headerValues = (page: Page) => page.getByTestId("custom-header-value").allInnerTexts();

describeInBrowser("custom headers and conditions", () => {
  it("an admin adds a header and a condition, sees the value once, then masked, reveals it and edits the headers", async () => {
    const session = await open({ width: 1366, height: 900 });
    const { page } = session;
    await session.signIn("ada@headers.example", password);
    await page.goto("/settings/webhooks/new");
    await page.getByLabel("Address").fill(delivery.receiver.url("/n8n"));
    await page.getByLabel("Name (optional)").fill("n8n workflow");

    // Only status changes, only to Shortlisted.
    for (const type of ["candidate.submitted", "candidate.scored", "candidate.ready"]) {
      await page.getByRole("checkbox", { name: new RegExp(type.replace(".", "\\.")) }).uncheck();
    }
    await page.getByTestId("webhook-condition-fields").getByRole("checkbox", { name: "Shortlisted" }).check();
    await page.getByTestId("webhook-condition-fields").getByRole("checkbox", { name: "Passed" }).check();

    // A refused name says why; a valid one saves.
    await page.getByRole("button", { name: "Add a header" }).click();
    await page.getByLabel("Header 1 name").fill("Host");
    await page.getByLabel("Header 1 value").fill("example.com");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expectText(page, "The header Host cannot be set: it is taken from the webhook's address.");
    await page.getByLabel("Header 1 name").fill("X-Api-Key");
    await page.getByLabel("Header 1 value").fill(apiKey);
    expect(await page.getByLabel("Header 1 value").getAttribute("type")).toBe("password");
    await keep(session, "new-webhook-headers-and-conditions", "1366");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.waitForURL(/\/settings\/webhooks\/wh_/);
    webhookPath = new URL(page.url()).pathname;

    // Shown once, straight after the save.
    await expectText(page, "The values are shown this once");
    await expect.poll(() => headerValues(page)).toEqual([apiKey]);
    await expect(page.getByTestId("webhook-condition").allInnerTexts()).resolves.toEqual([
      "Status changes: only when the new status is Shortlisted or Passed.",
    ]);
    await expectText(page, "This webhook's conditions do not apply to samples");
    await keep(session, "webhook-page-headers-shown-once", "1366");

    // Masked from then on; revealed on request.
    await reopen(page);
    await page.getByTestId("custom-headers-panel").waitFor();
    await expect.poll(() => headerValues(page)).toEqual([maskedHeaderValue]);
    expect(await page.locator("body").innerText()).not.toContain(apiKey);
    await keep(session, "webhook-page-headers-masked", "1366");
    await page.getByRole("button", { name: "Reveal values" }).click();
    await expect.poll(() => headerValues(page)).toEqual([apiKey]);
    await page.getByRole("button", { name: "Hide values" }).click();
    await expect.poll(() => headerValues(page)).toEqual([maskedHeaderValue]);

    // Editing: the saved value is never put in the form; left empty it is kept; a second header and a new condition are added.
    await page.getByRole("link", { name: "Change headers" }).click();
    await page.getByLabel("Header 1 name").waitFor();
    expect(await page.getByLabel("Header 1 name").inputValue()).toBe("X-Api-Key");
    expect(await page.getByLabel("Header 1 value").inputValue()).toBe("");
    expect(await page.content()).not.toContain(apiKey);
    await page.getByRole("button", { name: "Add a header" }).click();
    await page.getByLabel("Header 2 name").fill("Authorization");
    await page.getByLabel("Header 2 value").fill("Basic dXNlcjpwYXNz");
    await page.getByTestId("webhook-condition-fields").getByRole("checkbox", { name: "Passed" }).uncheck();
    await keep(session, "edit-webhook-headers-and-conditions", "1366");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL((url) => url.pathname === webhookPath);
    await expect.poll(() => headerValues(page)).toEqual([apiKey, "Basic dXNlcjpwYXNz"]);
    await expect(page.getByTestId("webhook-condition").allInnerTexts()).resolves.toEqual(["Status changes: only when the new status is Shortlisted."]);
    expect(await revealWebhookHeaders(test.ctx, companyId, webhookPath.split("/").at(-1)!)).toEqual([
      { name: "X-Api-Key", value: apiKey },
      { name: "Authorization", value: "Basic dXNlcjpwYXNz" },
    ]);

    // Removing one.
    await page.getByRole("link", { name: "Change headers" }).click();
    await page.getByRole("button", { name: "Remove" }).nth(1).click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL((url) => url.pathname === webhookPath);
    await expect.poll(() => headerValues(page)).toEqual([apiKey]);
    await session.close();
  });

  it("a member sees the conditions in words and nothing of the headers", async () => {
    const session = await open({ width: 1366, height: 900 });
    const { page } = session;
    await session.signIn("max@headers.example", password);
    await page.goto(webhookPath);
    await page.getByTestId("webhook-condition").waitFor();
    await expect(page.getByTestId("webhook-condition").allInnerTexts()).resolves.toEqual(["Status changes: only when the new status is Shortlisted."]);
    const text = await page.locator("body").innerText();
    expect(text).not.toContain("X-Api-Key");
    expect(text).not.toContain("Custom headers");
    expect(await page.content()).not.toContain(apiKey);
    await keep(session, "webhook-page-member", "1366");
    await session.close();
  });

  it("the new parts fit a phone", async () => {
    const session = await open("phone");
    const { page } = session;
    await session.signIn("ada@headers.example", password);
    await page.goto(`${webhookPath}/edit`);
    await page.getByLabel("Header 1 name").waitFor();
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(390);
    await keep(session, "edit-webhook-headers-and-conditions", "390");
    await page.goto(webhookPath);
    await page.getByTestId("custom-headers-panel").waitFor();
    await page.getByRole("button", { name: "Reveal values" }).click();
    await expect.poll(() => headerValues(page)).toEqual([apiKey]);
    expect(await width()).toBeLessThanOrEqual(390);
    await keep(session, "webhook-page-headers-revealed", "390");
    await session.close();
  });
});
