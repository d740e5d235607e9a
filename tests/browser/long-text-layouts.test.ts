/**
 * What people type never makes a page wider than the window (issue 27): with
 * the longest values the settings forms accept (tests/support/long-values.ts),
 * no settings, candidate or docs page scrolls sideways at 1366 or 390 px, wide
 * tables scroll in their own box, and the revoke dialog's buttons stay on screen.
 */
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { guides } from "@/app/docs/guides";
import { describeInBrowser, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { longValues, longValuesAdmin, seedLongValues } from "../support/long-values";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "long-text-layouts");
let seeded: Awaited<ReturnType<typeof seedLongValues>>;

beforeAll(async () => {
  seeded = await seedLongValues(test.ctx);
});

const sizes = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

/** Each page, and what shows once its data is in. */
const settingsPages = (): Array<{ path: string; ready: (page: Page) => Promise<unknown> }> => [
  { path: "/settings/api-keys", ready: (page) => page.getByTestId("api-key-row").first().waitFor() },
  { path: "/settings/webhooks", ready: (page) => page.getByText(longValues.webhookName).waitFor() },
  { path: "/settings/webhooks/new", ready: (page) => page.getByLabel("Address").waitFor() },
  { path: `/settings/webhooks/${seeded.webhookId}`, ready: (page) => page.getByRole("heading", { name: longValues.webhookName }).waitFor() },
  {
    path: `/settings/webhooks/${seeded.webhookId}/edit`,
    ready: (page) => expect.poll(() => page.getByLabel(/^Name/).inputValue()).toBe(longValues.webhookName),
  },
  { path: "/settings/events", ready: (page) => page.getByRole("heading", { name: "Event types" }).waitFor() },
  { path: `/candidates/${seeded.candidateId}`, ready: (page) => page.getByTestId("candidate-recording").waitFor() },
];

const docsPages = ["/docs", ...guides.map((guide) => guide.href)];

/** How much wider than the window the page is (0 when it fits). */
async function overflow(page: Page) {
  await page.waitForLoadState("networkidle");
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

describeInBrowser("long values in the layout", () => {
  for (const size of sizes) {
    it(`no settings or candidate page is wider than a ${size.width} px window`, async () => {
      const session = await open(size);
      const { page } = session;
      await session.signIn(longValuesAdmin.email, longValuesAdmin.password);
      const wider: Record<string, number> = {};
      for (const { path, ready } of settingsPages()) {
        await page.goto(path);
        await ready(page);
        wider[path] = await overflow(page);
        if (wider[path] > 0) await session.screenshot(`too-wide-${size.width}`, { evidence: true });
      }
      expect(wider).toEqual(Object.fromEntries(Object.keys(wider).map((path) => [path, 0])));
      await session.close();
    });

    it(`no docs page is wider than a ${size.width} px window`, async () => {
      const session = await open(size);
      const { page } = session;
      const wider: Record<string, number> = {};
      for (const path of docsPages) {
        await page.goto(path);
        await page.locator("h1").first().waitFor();
        wider[path] = await overflow(page);
      }
      expect(wider).toEqual(Object.fromEntries(docsPages.map((path) => [path, 0])));
      await session.close();
    });

    it(`the revoke dialog for the longest key name keeps its buttons in a ${size.width} px window`, async () => {
      const session = await open(size);
      const { page } = session;
      await session.signIn(longValuesAdmin.email, longValuesAdmin.password);
      await page.goto("/settings/api-keys");
      await page.getByRole("button", { name: `Revoke ${longValues.apiKeyName}` }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await session.screenshot(`revoke-dialog-${size.width}`);
      for (const name of ["Keep the key", "Revoke key", "Close"]) {
        const box = (await dialog.getByRole("button", { name }).boundingBox())!;
        expect({ name, left: box.x >= 0, right: box.x + box.width <= size.width, top: box.y >= 0, bottom: box.y + box.height <= size.height }).toEqual({
          name,
          left: true,
          right: true,
          top: true,
          bottom: true,
        });
      }
      expect(await overflow(page)).toBe(0);
      await session.close();
    });
  }
});
