/**
 * What others control is shown as text, never as markup, in Chromium against
 * the production build: a receiver's answer in the delivery log (body and
 * headers), a webhook's name and description (written by any admin), and a
 * candidate's name, answers, transcript and document name (written by the
 * candidate). Each holds a `<script>` and an `<img onerror>` that would set
 * `window.__xss`; the test passes when the payloads show as the text they are,
 * no such element exists, nothing ran, and (tests/support/browser.ts) no page
 * broke its Content-Security-Policy, as an inline handler would.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { finishAiInterview, startAiInterview } from "@/server/domain/ai-interview";
import { saveAnswers, startAttempt, submitAttempt, uploadDocument } from "@/server/domain/attempts";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { describeInBrowser, expectText, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, scoreAndRecord } from "../support/fixtures";
import { type Receiver, startReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { allowReceiver, pump, webhookDeps } from "../support/webhook-fixtures";

const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "untrusted-text");
const password = "correct horse battery staple";

/** Markup that would record where it ran, were it ever parsed as markup. */
const script = (where: string) => `<script>window.__xss="${where}"</script>`;
const image = (where: string) => `<img src=x onerror="window.__xss='${where}'">`;
const both = (where: string) => `${script(where)}${image(where)}`;

const webhookName = image("webhook name");
const webhookDescription = both("webhook description");
const responseBody = both("response body");
const responseHeader = image("response header");
const candidateName = image("candidate name");
const answer = both("answer");
const spoken = both("transcript");
const documentName = `${image("document")}.pdf`;

let receiver: Receiver;
let webhookId: string;
let candidateId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.answer(() => ({ status: 200, headers: { "Content-Type": "text/html", "X-Note": responseHeader }, body: responseBody }));
  const companyId = await makeCompany(test.ctx, "Untrusted Ltd");
  await createUser(test.ctx, { companyId, email: "ada@untrusted.example", name: "Ada Admin", role: "admin", password });
  webhookId = (
    await createWebhook(
      test.ctx,
      companyId,
      { url: receiver.url("/untrusted"), name: webhookName, description: webhookDescription, eventTypes: ["candidate.submitted"] },
      allowReceiver(receiver),
    )
  ).id;
  const interview = await makeInterview(test.ctx, companyId);
  candidateId = (await startAttempt(test.ctx, { interviewId: interview.id, name: candidateName, email: "mallory@example.com" })).id;
  const [why, phone] = interview.questions;
  await saveAnswers(test.ctx, candidateId, { [why!.id]: answer, [phone!.id]: "Yes" });
  await startAiInterview(test.ctx, candidateId);
  await finishAiInterview(test.ctx, candidateId, {
    transcript: [{ question: "Tell me about you.", answer: spoken, speakingSeconds: 40 }],
    durationSeconds: 300,
    questionsAsked: 1,
  });
  await uploadDocument(test.ctx, candidateId, { fileName: documentName, contentType: "application/pdf", bytes: Buffer.from("%PDF-1.4") });
  await scoreAndRecord(test.ctx, candidateId);
  await submitAttempt(test.ctx, candidateId);
  const deps = webhookDeps(test, receiver);
  try {
    await pump(deps);
  } finally {
    await deps.client.close();
  }
  expect(receiver.received.length).toBeGreaterThan(0);
});
afterAll(() => receiver?.close());

/** Nothing of the payloads became an element, and nothing of them ran. */
async function expectNothingRan(page: Page, where: string) {
  // An injected image fails to load at once (`x` is a 404); let any handler run before looking.
  await page.waitForLoadState("networkidle");
  expect(await page.locator('img[src="x"]').count(), `${where}: injected images`).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: string }).__xss), `${where}: what ran`).toBeUndefined();
}

describeInBrowser("what others control, in the browser", () => {
  it("a webhook's name and description show as text on the list, its page and its edit form", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@untrusted.example", password);
    await page.goto("/settings/webhooks");
    await expectText(page, webhookName);
    await expectText(page, webhookDescription);
    await expectNothingRan(page, "the webhook list");
    await screenshot("webhook-list");

    await page.goto(`/settings/webhooks/${webhookId}`);
    await expectText(page, webhookDescription);
    await page.getByRole("heading", { name: webhookName }).waitFor();
    await expectNothingRan(page, "the webhook's page");
    await screenshot("webhook-page");

    await page.goto(`/settings/webhooks/${webhookId}/edit`);
    await expect.poll(() => page.getByLabel(/^Name/).inputValue()).toBe(webhookName);
    expect(await page.getByLabel(/^Description/).inputValue()).toBe(webhookDescription);
    await expectNothingRan(page, "the edit form");
    await session.close();
  });

  it("a receiver's answer (body and headers) and the candidate's name show as text in the delivery log", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@untrusted.example", password);
    await page.goto(`/settings/webhooks/${webhookId}`);
    const row = page.getByTestId("log-row").filter({ hasText: candidateName }).first();
    await row.getByText("Delivered").waitFor();
    await row.getByRole("button", { name: "Attempts" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Response body (excerpt)").click();
    await dialog.getByText(responseBody).waitFor();
    await dialog.getByText("Response headers").click();
    await dialog.getByText(`x-note: ${responseHeader}`).waitFor();
    await expectNothingRan(page, "the delivery log");
    await screenshot("attempt-with-the-receivers-answer");
    await session.close();
  });

  it("a candidate's name, answers, transcript and document name show as text on the candidate's page", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@untrusted.example", password);
    await page.goto(`/candidates/${candidateId}`);
    await page.getByRole("heading", { name: candidateName }).waitFor();
    for (const text of [answer, spoken, documentName]) await expectText(page, text);
    await expectNothingRan(page, "the candidate's page");
    await screenshot("candidate-page");
    await session.close();
  });
});
