/**
 * In Chromium against the production build: the event catalog, the delivery
 * chart's tooltips and empty state, deep-link sign-in (and refusing a
 * callback to another site), the candidate pages behind `dashboard_url`, the
 * public page behind `candidate_link`, and where a sample's links lead.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventTypes, webhookMessages } from "@/db/schema";
import { createUser } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { openApiExamples } from "@/server/examples/openapi-examples";
import { readInterview } from "@/server/read/interviews";
import { sampleEventBody } from "@/server/webhooks/admin/sample";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type BrowserSession, describeInBrowser, expectText, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { type Receiver, startReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { allowReceiver, pump, webhookDeps } from "../support/webhook-fixtures";

const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "settings-pages");
const password = "correct horse battery staple";
let receiver: Receiver;
let companyId: string;
let interviewId: string;
let candidateId: string;
let otherCandidateId: string;
let busyWebhookId: string;
let quietWebhookId: string;
let busyHour: string;

beforeAll(async () => {
  receiver = await startReceiver();
  // Within the chart's last 24 hours, as the server's real clock sees them.
  test.clock.set(new Date(Date.now() - 2 * 3600_000));
  companyId = await makeCompany(test.ctx, "Pages Ltd");
  await createUser(test.ctx, { companyId, email: "ada@pages.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@pages.example", name: "Max Member", role: "member", password });
  busyWebhookId = (await createWebhook(test.ctx, companyId, { url: receiver.url("/busy") }, allowReceiver(receiver))).id;
  const interview = await makeInterview(test.ctx, companyId);
  interviewId = interview.id;

  const deps = webhookDeps(test, receiver);
  try {
    const candidate = await startCandidate(test.ctx, interview.id, { email: "grace@example.com" });
    candidateId = candidate.id;
    await completeSteps(test.ctx, interview, candidateId);
    await scoreAndRecord(test.ctx, candidateId, 82);
    await submitAttempt(test.ctx, candidateId);
    await pump(deps);
    // A second candidate whose submission the receiver turns away: a message waiting for its retry.
    receiver.answer(() => ({ status: 503 }));
    const second = await startCandidate(test.ctx, interview.id, { email: "linus@example.com" });
    await completeSteps(test.ctx, interview, second.id);
    await submitAttempt(test.ctx, second.id);
    await pump(deps);
  } finally {
    await deps.client.close();
  }
  quietWebhookId = (await createWebhook(test.ctx, companyId, { url: receiver.url("/quiet") }, allowReceiver(receiver))).id;
  const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, busyWebhookId));
  busyHour = new Date(Math.floor(message!.createdAt.getTime() / 3600_000) * 3600_000).toISOString();

  const otherCompany = await makeCompany(test.ctx, "Other Co");
  const otherInterview = await makeInterview(test.ctx, otherCompany);
  otherCandidateId = (await startCandidate(test.ctx, otherInterview.id, { email: "eve@example.com" })).id;
}, 120_000);
afterAll(() => receiver.close());

/** Fills the sign-in form on the page that is open. */
async function fillSignIn(session: BrowserSession, email: string) {
  await session.page.getByLabel("Email").fill(email);
  await session.page.getByLabel("Password").fill(password);
  await session.page.getByRole("button", { name: "Sign in" }).click();
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describeInBrowser("settings pages in the browser", () => {
  it("the event catalog shows every event type, when it is produced, and the API reference's example, which can be copied", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await session.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await signIn("max@pages.example", password);
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Event types" }).click();
    await page.waitForURL(/\/settings\/events$/);
    await expectText(page, "When it is produced");
    for (const type of eventTypes) {
      await page.getByTestId(`event-type-${type}`).getByRole("heading", { name: type }).waitFor();
      expect(await page.getByTestId(`example-${type}`).innerText()).toBe(JSON.stringify(openApiExamples.webhooks[type]!.body, null, 2));
    }
    await expectText(page, "Never before candidate.submitted, and not produced when the interview could not be scored.");
    await screenshot("event-catalog");
    await page.getByTestId("event-type-candidate.status_changed").getByRole("button", { name: "Copy example" }).click();
    await page.getByTestId("event-type-candidate.status_changed").getByText("Copied").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toEqual(openApiExamples.webhooks["candidate.status_changed"]!.body);
    await screenshot("event-catalog-copied");
    await session.close();
  });

  it("the chart shows an hour's tries on hover and on keyboard focus, agrees with the success rates, and has a clear empty state", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@pages.example", password);
    await page.goto(`/settings/webhooks/${busyWebhookId}`);
    const chart = page.getByTestId("delivery-chart");
    await chart.waitFor();
    await page.locator(`g[data-hour="${busyHour}"] [data-testid="chart-hour"]`).hover();
    const tooltip = page.getByTestId("chart-tooltip");
    // The receiver took the first candidate's three messages and turned away the second's first try (its retry waits):
    // the chart and the success rates count the same four tries, so a rate below 100% never sits above "Failed: 0".
    await tooltip.getByText("Succeeded tries: 3").waitFor();
    await tooltip.getByText("Failed tries: 1").waitFor();
    await page.getByTestId("chart-rate").getByText("3 of 4 tries succeeded in the last 24 hours").waitFor();
    await page.getByTestId("success-24h").getByText("75% of 4 tries").waitFor();
    await page.getByTestId("success-7d").getByText("75% of 4 tries").waitFor();
    expect(await tooltip.innerText()).toMatch(/\d{2}:\d{2}( [AP]M)?–\d{2}:\d{2}/);
    await screenshot("chart-tooltip-on-hover");

    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: "detached" });
    await chart.focus();
    await tooltip.waitFor();
    await page.keyboard.press("Home");
    await page.keyboard.press("End");
    const lastHour = await tooltip.innerText();
    await page.keyboard.press("ArrowLeft");
    expect(await tooltip.innerText()).not.toBe(lastHour);
    await screenshot("chart-tooltip-from-keyboard");

    await page.goto(`/settings/webhooks/${quietWebhookId}`);
    await expectText(page, "No tries in this period");
    await page.getByRole("button", { name: "7 days" }).click();
    await page.getByRole("img", { name: "No tries in this period (the last 7 days)." }).waitFor();
    expect(await page.getByTestId("delivery-chart").locator("text").allTextContents()).toEqual(expect.arrayContaining(["0", "1"]));
    await screenshot("chart-empty-7-days");
    await session.close();
  });

  it("signing in from a deep link returns to it; a callback to another site is refused", async () => {
    const session = await open();
    const { page, screenshot } = session;
    await page.goto(`/settings/webhooks/${busyWebhookId}`);
    await page.waitForURL(/\/sign-in/);
    expect(pathOf(page.url())).toBe(`/sign-in?callbackUrl=${encodeURIComponent(`/settings/webhooks/${busyWebhookId}`)}`);
    await screenshot("deep-link-sign-in");
    await fillSignIn(session, "max@pages.example");
    await page.waitForURL(new RegExp(`/settings/webhooks/${busyWebhookId}$`));
    await expectText(page, "Tries per hour");
    await screenshot("deep-link-landed-on-webhook");
    await session.close();

    for (const evil of ["//evil.example", "https://evil.example/settings/webhooks", "/\\evil.example", "/.//evil.example"]) {
      const visitor = await open();
      await visitor.page.goto(`/sign-in?callbackUrl=${encodeURIComponent(evil)}`);
      await fillSignIn(visitor, "max@pages.example");
      await visitor.page.waitForURL(/\/settings\/webhooks$/);
      expect(new URL(visitor.page.url()).origin).toBe(server.baseUrl);
      if (evil === "//evil.example") await visitor.screenshot("evil-callback-refused");
      // Signed in already, the sign-in page refuses it too.
      await visitor.page.goto(`/sign-in?callbackUrl=${encodeURIComponent(evil)}`);
      await visitor.page.waitForURL(/\/settings\/webhooks$/);
      await visitor.close();
    }
  });

  it("a member sees a candidate's page from its dashboard_url; another company's candidate and an unknown id are 404", async () => {
    const session = await open("phone");
    const { page, screenshot } = session;
    await page.goto(`/candidates/${candidateId}`);
    await page.waitForURL(/\/sign-in\?callbackUrl=/);
    await fillSignIn(session, "max@pages.example");
    await page.waitForURL(new RegExp(`/candidates/${candidateId}$`));
    await expectText(page, "Ada Lovelace");
    expect(await page.getByTestId("candidate-status").innerText()).toBe("Passed");
    await expectText(page, "Complete: the AI score and the recording are in");
    await expectText(page, "Score 82 of 100 (pass mark 60)");
    const answers = await page.getByTestId("candidate-answers").innerText();
    expect(answers).toContain("Why support?");
    expect(answers).toContain("Because.");
    expect(await page.getByTestId("candidate-transcript").innerText()).toContain("I like people.");
    await expectText(page, "cv.pdf");
    const documentLink = await page.getByRole("link", { name: "Download", exact: true }).getAttribute("href");
    const download = await page.request.get(documentLink!);
    expect(download.status()).toBe(200);
    expect((await download.body()).toString()).toBe("%PDF-1.4");
    // The player's source is signed when the browser asks for it (a page left open keeps working).
    const recordingSource = await page.getByTestId("candidate-recording").getAttribute("src");
    expect(recordingSource).toBe(`/candidates/${candidateId}/recording`);
    const recording = await page.request.get(recordingSource!);
    expect(recording.status()).toBe(200);
    expect(recording.url()).toMatch(/\/downloads\//);
    await screenshot("candidate-page-member");

    const other = await page.goto(`/candidates/${otherCandidateId}`);
    expect(other!.status()).toBe(404);
    await expectText(page, "Candidate not found");
    expect(await page.locator("body").innerText()).not.toContain("eve@example.com");
    await screenshot("candidate-other-company-404");
    const unknown = await page.goto("/candidates/cand_doesnotexist");
    expect(unknown!.status()).toBe(404);
    await expectText(page, "Candidate not found");
    await screenshot("candidate-unknown-404");
    await session.close();
  });

  it("the interview's candidate_link is a public page about the interview, with no candidate data; an unknown one is 404", async () => {
    const interview = await readInterview(test.handle.sql, companyId, interviewId);
    const session = await open();
    const { page, screenshot } = session;
    const response = await page.goto(pathOf(interview!.candidate_link));
    expect(response!.status()).toBe(200);
    await expectText(page, "Support Specialist");
    await expectText(page, "Pages Ltd");
    await expectText(page, "An AI-led first interview for Pages Ltd");
    await expectText(page, "about 2 questions, up to 20 minutes");
    await expectText(page, "Uploading a document: CV");
    const text = await page.locator("body").innerText();
    for (const privateText of ["Ada Lovelace", "grace@example.com", "linus@example.com", "Because."]) expect(text).not.toContain(privateText);
    await screenshot("public-interview-page");
    const unknown = await page.goto("/interview/int_doesnotexist");
    expect(unknown!.status()).toBe(404);
    await expectText(page, "Interview not found");
    await screenshot("public-interview-unknown-404");
    await session.close();
  });

  it("a sample's dashboard_url leads to a page that says it is a sample", async () => {
    const sample = JSON.parse(await sampleEventBody(test.ctx.db, companyId, interviewId, "candidate.ready", "evt_sample_links", new Date())) as {
      candidate: { dashboard_url: string };
    };
    expect(pathOf(sample.candidate.dashboard_url)).toBe("/candidates/cand_sample");
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("max@pages.example", password);
    const response = await page.goto(pathOf(sample.candidate.dashboard_url));
    expect(response!.status()).toBe(200);
    await expectText(page, "Sam Sample is a sample candidate");
    await screenshot("sample-candidate-page");
    await page.getByRole("link", { name: "See every event type with an example" }).click();
    await page.waitForURL(/\/settings\/events$/);
    await session.close();
  });
});
