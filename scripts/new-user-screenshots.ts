/**
 * Screenshots of the pages a new admin and integrator meet with long values,
 * at 1366 and 390 px, in test-artifacts/screenshots/new-user/<set>/ (not
 * committed), to compare a change's pages before and after it:
 *
 *   SCREENSHOTS=before npm run screenshots
 *   SCREENSHOTS=after npm run screenshots
 *
 * Each set also gets widths.json: every page's width against its viewport's.
 * It runs under Vitest (TEST_SUITE=screenshots) for the tests' real server,
 * database and Chromium.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, it } from "vitest";
import { describeInBrowser, expectText, useBrowser } from "../tests/support/browser";
import { useTestDatabase } from "../tests/support/database";
import { longValues, longValuesAdmin, seedLongValues } from "../tests/support/long-values";
import { useTestServer } from "../tests/support/server";

const set = process.env.SCREENSHOTS ?? "current";
const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "new-user-screenshots");
const folder = path.resolve("test-artifacts", "screenshots", "new-user", set);
const sizes = [
  { name: "1366", viewport: { width: 1366, height: 768 } },
  { name: "390", viewport: { width: 390, height: 844 } },
];
let seeded: Awaited<ReturnType<typeof seedLongValues>>;

beforeAll(async () => {
  seeded = await seedLongValues(test.ctx);
});

describeInBrowser(`screenshots of the new user's pages (${set})`, () => {
  it("are saved at 1366 and 390 px", { timeout: 300_000 }, async () => {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const widths: Array<{ shot: string; viewport: number; page: number }> = [];
    for (const { name: size, viewport } of sizes) {
      const session = await open(viewport);
      const { page } = session;
      let shots = 0;
      const shoot = async (name: string) => {
        shots += 1;
        const shot = `${String(shots).padStart(2, "0")}-${name}-${size}`;
        await page.waitForLoadState("networkidle");
        widths.push({ shot, viewport: viewport.width, page: await page.evaluate(() => document.documentElement.scrollWidth) });
        await page.screenshot({ path: path.join(folder, `${shot}.png`), fullPage: true });
      };
      await session.signIn(longValuesAdmin.email, longValuesAdmin.password);

      await page.goto("/settings/api-keys");
      await page.getByTestId("api-key-row").first().waitFor();
      await shoot("api-keys");
      await page.getByRole("button", { name: `Revoke ${longValues.apiKeyName}` }).click();
      await page.getByRole("dialog").waitFor();
      await shoot("revoke-dialog");

      await page.goto("/settings/webhooks");
      await expectText(page, "webhooks used");
      await shoot("webhook-list");
      await page.goto(`/settings/webhooks/${seeded.webhookId}`);
      await page.getByRole("heading", { name: longValues.webhookName }).waitFor();
      await shoot("webhook-page");
      await page.goto("/settings/webhooks/new");
      await page.getByLabel("Address").waitFor();
      await shoot("new-webhook");

      await page.goto("/docs/errors");
      await shoot("docs-errors");
      await page.goto("/docs/downloads");
      await shoot("docs-downloads");

      await page.goto(`/candidates/${seeded.candidateId}`);
      await page.getByTestId("candidate-recording").waitFor();
      await shoot("candidate-downloads");
      await session.close();
    }
    writeFileSync(path.join(folder, "widths.json"), `${JSON.stringify(widths, null, 2)}\n`);
  });
});
