/**
 * The delivery log and health in Chromium, against the production build, the
 * real worker process and a real HTTPS receiver: when each event happened
 * (past events sent together keep the history's order), the log's filters and
 * open message in the address (reload, Back, a link to one attempt), the
 * company-wide "find this event id", a webhook turned off by an admin shown
 * as a choice rather than a failure, samples of every event type, and the
 * chart at phone width.
 */
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { backfill } from "@/server/webhooks/admin/backfill";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { webhookOffReason } from "@/server/webhooks/delivery/unsent-reasons";
import { describeInBrowser, expectText, keepScreenshots, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();
const server = useTestServer(test, delivery.env);
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: test.url, FILE_STORAGE_DIR: test.filesDir, ...delivery.env() }));
const open = useBrowser(server, "delivery-log-links");
const password = "correct horse battery staple";
const pausedPath = "/hooks/paused";

let companyId: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;
let primaryId: string;
let secondaryId: string;
let pausedId: string;
let annId: string;
let otherCompanyEventId: string;
/** The company's events, newest first in the history's order, with their times. */
let history: Array<{ id: string; created_at: Date }>;

const at = (daysAgo: number, time: string) => {
  const day = new Date(Date.now() - daysAgo * 24 * 3600_000).toISOString().slice(0, 10);
  return new Date(`${day}T${time}Z`);
};

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Timing Ltd");
  interview = await makeInterview(test.ctx, companyId);
  await createUser(test.ctx, { companyId, email: "ada@time.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@time.example", name: "Max Member", role: "member", password });
  // Two candidates finished days ago, before the webhooks existed; their events are sent later, all at once.
  test.clock.set(at(3, "10:15:07"));
  annId = (await submitCandidate(test.ctx, interview, { email: "ann@example.com" })).id;
  test.clock.set(at(1, "16:42:31"));
  await submitCandidate(test.ctx, interview, { email: "ben@example.com" });
  test.clock.set(new Date());
  const allow = { allowTargets: [delivery.receiver.target] };
  primaryId = (await createWebhook(test.ctx, companyId, { url: delivery.receiver.url("/hooks/primary?token=secret-part"), name: "Primary ATS" }, allow)).id;
  secondaryId = (await createWebhook(test.ctx, companyId, { url: delivery.receiver.url("/hooks/secondary"), name: "Reporting" }, allow)).id;
  pausedId = (await createWebhook(test.ctx, companyId, { url: delivery.receiver.url(pausedPath), name: "Paused", eventTypes: ["candidate.ready"] }, allow)).id;
  await backfill(test.ctx, companyId, primaryId, at(4, "00:00:00"));
  history = await test.handle.sql`select id, created_at from events where company_id = ${companyId} order by tx_id desc, seq desc`;

  const other = await makeCompany(test.ctx, "Elsewhere Inc");
  const otherInterview = await makeInterview(test.ctx, other);
  await createWebhook(test.ctx, other, { url: delivery.receiver.url("/hooks/elsewhere") }, allow);
  await submitCandidate(test.ctx, otherInterview, { email: "eve@example.com" });
  const [otherEvent] = await test.handle.sql<Array<{ id: string }>>`select id from events where company_id = ${other} limit 1`;
  otherCompanyEventId = otherEvent!.id;
});

const rows = (page: Page) => page.getByTestId("log-row");
const logSection = (page: Page) => page.getByRole("region", { name: /Delivery log/ });

async function filter(page: Page, fields: { type?: string; search?: string }) {
  if (fields.type !== undefined) await logSection(page).getByLabel("Event type").selectOption({ label: fields.type });
  if (fields.search !== undefined) await logSection(page).getByLabel("Event or candidate id").fill(fields.search);
  await page.getByRole("button", { name: "Filter" }).click();
}

/** Waits until the worker has tried the message (and the receiver turned it away). */
async function waitForFailedTry(messageId: string) {
  for (let waited = 0; waited < 30_000; waited += 200) {
    const [tried] = await test.handle.sql<Array<{ count: number }>>`
      select count(*)::int as count from webhook_attempts where message_id = ${messageId} and not succeeded`;
    if (tried!.count > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No failed try of ${messageId} within 30 s`);
}

describeInBrowser("the delivery log's times, links and health in the browser", () => {
  it("shows when each event happened, to the second and with the time zone on hover, past events sent together in the history's order", async () => {
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@time.example", password);
    await page.goto(`/settings/webhooks/${primaryId}`);
    await rows(page)
      .nth(history.length - 1)
      .waitFor();
    await expect(rows(page).count()).resolves.toBe(history.length);
    // Created in the same moment by the backfill: the same minute shown, but each row its own event's time.
    const created = await page.getByTestId("created-at").evaluateAll((times) => times.map((time) => time.getAttribute("datetime")));
    expect(new Set(created).size).toBe(1);
    const shown = await rows(page).evaluateAll((found) =>
      found.map((row) => ({
        eventId: row.querySelector("[data-testid=event-id]")!.textContent!.trim(),
        eventAt: row.querySelector("[data-testid=event-at]")!.getAttribute("datetime"),
        title: row.querySelector("[data-testid=event-at]")!.getAttribute("title"),
      })),
    );
    expect(shown.map((row) => row.eventId)).toEqual(history.map((event) => event.id));
    expect(shown.map((row) => row.eventAt)).toEqual(history.map((event) => event.created_at.toISOString()));
    expect(new Set(shown.map((row) => row.eventAt)).size).toBe(2);
    for (const row of shown) expect(row.title).toMatch(/:(15:07|42:31)\b.*(UTC|GMT)/);
    await screenshot("event-times-of-past-events-sent-together");
    await session.close();
  });

  it("keeps the filters and the open message in the address: reload shows them again, Back returns to the previous filter, an attempt has a link", async () => {
    await startWorker();
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@time.example", password);
    await page.goto(`/settings/webhooks/${primaryId}`);
    await rows(page)
      .filter({ hasText: "Delivered" })
      .nth(history.length - 1)
      .waitFor();

    await filter(page, { type: "Ready" });
    await page.waitForURL(/type=candidate\.ready/);
    await rows(page).filter({ hasNotText: "Ready" }).first().waitFor({ state: "detached" });
    await expect(rows(page).count()).resolves.toBe(2);
    await filter(page, { search: annId });
    await page.waitForURL(new RegExp(`search=${annId}`));
    await rows(page).nth(1).waitFor({ state: "detached" });
    const eventId = (await rows(page).first().getByTestId("event-id").textContent())!.trim();

    await rows(page).first().getByRole("button", { name: "Attempts" }).click();
    await page.waitForURL(/message=msg_/);
    const dialog = page.getByRole("dialog");
    await dialog.getByText(eventId, { exact: true }).waitFor();
    await page.reload();
    await page.getByRole("dialog").getByText(eventId, { exact: true }).waitFor();
    await expect(logSection(page).getByLabel("Event or candidate id").inputValue()).resolves.toBe(annId);
    await expect(logSection(page).getByLabel("Event type").inputValue()).resolves.toBe("candidate.ready");
    await screenshot("reloaded-with-filters-and-open-message");

    // "Look at this attempt": its link opens the message at that attempt, with what was sent.
    await dialog.getByRole("link", { name: "Attempt 1" }).click();
    await page.waitForURL(/attempt=1/);
    const link = page.url();
    const other = await open();
    await other.signIn("ada@time.example", password);
    await other.page.goto(link);
    const pointed = other.page.getByRole("dialog").getByTestId("attempt").and(other.page.locator("[aria-current=true]"));
    await pointed.getByTestId("request-body").waitFor();
    expect(JSON.parse(`${await pointed.getByTestId("request-body").textContent()}`).id).toBe(eventId);
    await other.screenshot("attempt-link-opened");
    await other.close();

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.waitForURL((url) => !url.search.includes("message="));
    await page.goBack();
    await page.waitForURL(/attempt=1/);
    await page.getByRole("dialog").getByText(eventId, { exact: true }).waitFor();
    await page.goBack();
    await page.goBack();
    await page.waitForURL((url) => url.search.includes(`search=${annId}`) && !url.search.includes("message="));
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.goBack();
    // Back at the filter before the search: no message open, only the event type.
    await page.waitForURL((url) => !url.search.includes("search=") && url.search.includes("type=candidate.ready"));
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await rows(page).nth(1).waitFor();
    await expect(rows(page).count()).resolves.toBe(2);
    await expect(logSection(page).getByLabel("Event or candidate id").inputValue()).resolves.toBe("");
    await screenshot("back-to-the-previous-filter");
    await session.close();
  });

  it("finds an event's messages on every webhook of the company, for a member too, and nothing of another company", async () => {
    const session = await open("phone");
    const { page, screenshot, signIn, trpc } = session;
    await signIn("max@time.example", password);
    const eventId = history.at(-1)!.id;
    await page.goto("/settings/webhooks");
    await page.getByLabel("Event or candidate id").fill(eventId);
    await page.getByRole("button", { name: "Find" }).click();
    await page.waitForURL(new RegExp(`find=${eventId}`));
    const found = page.getByTestId("found-message");
    await found.nth(1).waitFor();
    await expect(found.count()).resolves.toBe(2);
    const text = await page.getByRole("list", { name: "Messages found" }).innerText();
    expect(text).toContain("Primary ATS");
    expect(text).toContain("Reporting");
    expect(text).not.toContain("secret-part");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot("found-on-two-webhooks-member-phone");

    const answer = await trpc("webhooks.searchLog", { search: "evt_" }, "query");
    expect(answer.status).toBe(200);
    const messages = answer.body.result.data.messages as Array<{ eventId: string; webhook: { id: string; address: string } }>;
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages) {
      expect([primaryId, secondaryId, pausedId]).toContain(message.webhook.id);
      expect(message.webhook.address).toMatch(/\/…$/);
    }
    expect(messages.map((message) => message.eventId)).not.toContain(otherCompanyEventId);

    await page.getByLabel("Event or candidate id").fill(otherCompanyEventId);
    await page.getByRole("button", { name: "Find" }).click();
    await expectText(page, "No message found");
    await page.goBack();
    await found.getByRole("link", { name: "Primary ATS" }).click();
    await page.waitForURL(new RegExp(`/settings/webhooks/${primaryId}\\?message=msg_`));
    await page.getByRole("dialog").getByText(eventId, { exact: true }).waitFor();
    await screenshot("found-message-opened-in-its-log");
    await session.close();
  });

  it("shows a webhook turned off by an admin, and its unsent messages, in grey, not as failures", async () => {
    // The paused webhook's receiver turns its messages away, so they wait for a retry when an admin turns it off.
    delivery.receiver.answer((request) => (request.path === pausedPath ? { status: 503 } : { status: 200 }));
    await startWorker();
    const { messageId } = await sendSample(test.ctx, companyId, pausedId, interview.id);
    await waitForFailedTry(messageId);
    await setWebhookEnabled(test.ctx, companyId, pausedId, false);
    const session = await open();
    const { page, screenshot, signIn } = session;
    await signIn("ada@time.example", password);
    await page.goto(`/settings/webhooks/${pausedId}`);
    const health = page.getByTestId("webhook-health");
    await health.getByText("This webhook is off. Turned off by an admin.").waitFor();
    expect(await health.getAttribute("class")).not.toMatch(/red/);
    const badge = page.getByText("Off", { exact: true }).first();
    await expect(badge.getAttribute("data-tone")).resolves.toBe("slate");
    const notSent = page.getByTestId("log-status").getByText("Not sent");
    await notSent.first().waitFor();
    await expect(notSent.first().getAttribute("data-tone")).resolves.toBe("slate");
    await expect(page.getByTestId("log-status").getByText("Failed", { exact: true }).count()).resolves.toBe(0);
    await rows(page).filter({ hasText: "Not sent" }).first().getByRole("button", { name: "Attempts" }).click();
    await page.getByRole("dialog").getByText(webhookOffReason).waitFor();
    await screenshot("turned-off-in-grey");
    await session.close();
  });

  it("sends a sample of any event type, says what happens when one fails, and keeps the chart readable on a phone", async () => {
    await startWorker();
    delivery.receiver.answer(() => ({ status: 200 }));
    // The hardest case for the axis: the oldest hour is a midnight where the browser is, so the
    // 24-hour range labels its first bar (the 7-day range, labelled every other day at this
    // width, on alternate days), in the locale with the widest hour labels.
    const session = await open("phone", { locale: "en-US", timezoneId: zoneWhereOldestChartHourIsMidnight(new Date()) });
    const { page, screenshot, signIn } = session;
    await signIn("ada@time.example", password);
    await page.goto(`/settings/webhooks/${secondaryId}`);
    await expectText(page, "A sample that fails is retried like any message");
    const samples = page.getByRole("region", { name: "Send a sample" });
    await samples.getByLabel("Event type").selectOption("candidate.status_changed");
    await samples.getByLabel("Interview", { exact: true }).selectOption({ label: interview.title });
    await page.getByRole("button", { name: "Send sample" }).click();
    const outcome = page.getByTestId("message-outcome");
    await outcome.getByText("The address answered 200").waitFor();
    await outcome.getByText("Request body").click();
    const body = JSON.parse(`${await outcome.getByTestId("request-body").textContent()}`);
    expect(body).toMatchObject({ type: "candidate.status_changed", test: true, change: { to: "shortlisted" } });

    const chart = page.getByTestId("delivery-chart");
    await chart.scrollIntoViewIfNeeded();
    await page
      .getByTestId("chart-succeeded")
      .filter({ hasText: /^[1-9]/ })
      .waitFor();
    const box = (await chart.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    for (const range of ["24 hours", "7 days"]) {
      await page.getByRole("button", { name: range }).click();
      await page.locator(`[data-testid=delivery-chart][aria-label*="${range}"]`).waitFor();
      // Axis labels at their own size (11 px), inside the chart, none overlapping another.
      const labels = await chart.locator("text").evaluateAll((texts) =>
        texts.map((text) => {
          const rect = text.getBoundingClientRect();
          return { text: text.textContent, left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom, height: rect.height };
        }),
      );
      const hours = labels.filter((label) => label.top > box.y + box.height - 20);
      expect(hours.length, range).toBeGreaterThan(1);
      for (const label of labels) {
        const where = `${label.text} (${range})`;
        expect(label.height, where).toBeGreaterThanOrEqual(10);
        expect(label.left, where).toBeGreaterThanOrEqual(box.x);
        expect(label.right, where).toBeLessThanOrEqual(box.x + box.width);
      }
      // The hours start right of the value axis's labels, not under them.
      const valuesEnd = Math.max(...labels.filter((label) => !hours.includes(label)).map((label) => label.right));
      for (const hour of hours) expect(hour.left, `${hour.text} (${range})`).toBeGreaterThanOrEqual(valuesEnd);
      for (const [index, one] of labels.entries())
        for (const other of labels.slice(index + 1)) {
          const apart = one.right <= other.left || other.right <= one.left || one.bottom <= other.top || other.bottom <= one.top;
          expect(apart, `${one.text} and ${other.text} (${range})`).toBe(true);
        }
      if (keepScreenshots) await chart.screenshot({ path: `test-artifacts/browser/delivery-log-links/chart-${range.replace(" ", "-")}-at-390.png` });
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot("sample-of-a-status-change-and-chart-on-phone");
    await session.close();
  });
});

/**
 * A whole-hour zone (Etc/GMT has its sign reversed) where the chart's oldest
 * hour, 23 hours before the current one (and 167 for 7 days, the same time of
 * day), starts at midnight.
 */
function zoneWhereOldestChartHourIsMidnight(now: Date) {
  const oldestHour = (now.getUTCHours() + 1) % 24;
  const offset = ((24 - oldestHour + 12) % 24) - 12;
  return offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}
