/**
 * In Chromium against the production build: the way from the settings to the
 * integrator's quick start (the navigation, the new key's dialog), the hint
 * at `listen` for an address only a laptop answers, and the quick start itself.
 */
import { beforeAll, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { describeInBrowser, expectText, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "quick-start");
const password = "correct horse battery staple";

beforeAll(async () => {
  const companyId = await makeCompany(test.ctx, "Starters Inc");
  await createUser(test.ctx, { companyId, email: "ada@starters.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@starters.example", name: "Max Member", role: "member", password });
});

describeInBrowser("the integrator's first hour", () => {
  it("the settings link the docs, and the new key's dialog links the quick start, which has the five steps", async () => {
    const { page, screenshot, signIn, close } = await open();
    await signIn("ada@starters.example", password);
    const settings = page.getByRole("navigation", { name: "Settings" });
    await expect(settings.getByRole("link", { name: "API docs" }).getAttribute("href")).resolves.toBe("/docs");

    await settings.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByLabel("Name").fill("First hour");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByTestId("new-api-key").waitFor();
    const quickStart = page.getByRole("dialog").getByRole("link", { name: "quick start" });
    await expect(quickStart.getAttribute("href")).resolves.toBe("/docs/quick-start");
    await screenshot("new-key-links-quick-start");

    await quickStart.click();
    await page.waitForURL(/\/docs\/quick-start$/);
    const headings = await page.getByRole("heading", { level: 2 }).allInnerTexts();
    expect(headings).toEqual([
      "1. Create an API key",
      "2. Call the API with curl",
      "3. List candidates with the TypeScript client",
      "4. Test a receiver on your machine with listen",
      "5. Add a webhook",
    ]);
    await expectText(page, `curl -H "Authorization: Bearer $INTERVIEW_API_KEY" ${server.baseUrl}/v1/me`);
    await expectText(page, "npm pack ./clients/typescript");
    await expectText(page, "npx interview-api listen");
    await screenshot("quick-start");
    await close();
  });

  it("a member sees the docs link too; the quick start fits a phone's width", async () => {
    const { page, screenshot, signIn, close } = await open("phone");
    await signIn("max@starters.example", password);
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API docs" }).isVisible()).resolves.toBe(true);
    await page.goto("/docs/quick-start");
    await expectText(page, "5. Add a webhook");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot("quick-start-phone");
    await close();
  });

  it("an http:// or localhost address in the webhook form brings a hint at listen, which a public https address does not", async () => {
    const { page, screenshot, signIn, close } = await open();
    await signIn("ada@starters.example", password);
    await page.goto("/settings/webhooks/new");
    const address = page.getByLabel("Address");
    const hint = page.getByRole("note").filter({ hasText: "listen" });

    await address.fill("https://hooks.example.com/interviews");
    await expect(hint.count()).resolves.toBe(0);

    for (const typed of [
      "http://localhost:4000/webhooks",
      "http://my-laptop.example/hook",
      "https://localhost:8443/hook",
      "localhost:4000/hook",
      "https://127.0.0.1/x",
    ]) {
      await address.fill(typed);
      await hint.waitFor();
      expect(await hint.innerText(), typed).toContain("npx interview-api listen");
      if (typed.includes("://")) expect(await hint.innerText(), typed).toContain(`--forward-to ${typed}`);
      await expect(hint.getByRole("link", { name: "the quick start" }).getAttribute("href")).resolves.toBe("/docs/quick-start#listen");
      if (typed === "http://localhost:4000/webhooks") await screenshot("listen-hint");
    }

    await address.fill("https://hooks.example.com/interviews");
    await hint.waitFor({ state: "detached" });
    await close();
  });
});
