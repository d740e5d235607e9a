/**
 * In Chromium against the production build: signing in, API keys from
 * creation to revocation, and who may sign in or act at all.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { users } from "@/db/schema";
import { createUser, setCompanySuspended } from "@/server/domain/accounts";
import { describeInBrowser, expectText, reopen, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { callApi, useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "api-keys");
const password = "correct horse battery staple";
let companyId: string;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Keys Inc");
  await createUser(test.ctx, { companyId, email: "ada@keys.example", name: "Ada Admin", role: "admin", password });
  await createUser(test.ctx, { companyId, email: "max@keys.example", name: "Max Member", role: "member", password });
});

describeInBrowser("API keys in the browser", () => {
  it("an admin creates a key that works on GET /v1/me, then revokes it and the same call gets 401", async () => {
    const { page, screenshot, signIn, close } = await open();
    await signIn("ada@keys.example", password);
    await page.getByRole("link", { name: "API keys" }).click();
    await expectText(page, "No API keys yet");
    await screenshot("api-keys-empty");

    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByRole("button", { name: "Create key" }).click();
    await expectText(page, "Give the key a name");
    await page.getByLabel("Name").fill("ATS sync");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-api-key").textContent())!.trim();
    await expectText(page, "It will not be shown again");
    await screenshot("api-key-shown-once");
    expect(key).toMatch(/^ivk_/);

    const me = await callApi(server, "/v1/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ company: { id: companyId, name: "Keys Inc" }, api_key: { name: "ATS sync" } });

    await page.getByRole("button", { name: "I have copied it" }).click();
    const row = page.getByRole("row", { name: /ATS sync/ });
    await expect(row.innerText()).resolves.toContain("by Ada Admin");
    await expect(page.locator("body").innerText()).resolves.not.toContain(key);
    await reopen(page);
    await row.getByText(/Active/).waitFor();
    await expect(row.innerText()).resolves.not.toMatch(/Never/);
    await screenshot("api-key-used");

    await row.getByRole("button", { name: "Revoke ATS sync" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await row.getByText(/Revoked/).waitFor();
    await screenshot("api-key-revoked");
    expect((await callApi(server, "/v1/me", { key })).status).toBe(401);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in/);
    await page.goto("/settings/api-keys");
    await page.waitForURL(/\/sign-in/);
    await close();
  });

  it("a wrong password is refused without saying which part was wrong, and the settings need a session", async () => {
    const { page, screenshot, close } = await open("phone");
    await page.goto("/settings/api-keys");
    await page.waitForURL(/\/sign-in/);
    // Keyboard only: the email field has focus, Tab moves on, Enter submits.
    await page.keyboard.type("ada@keys.example");
    await page.keyboard.press("Tab");
    await page.keyboard.type("not the password");
    await page.keyboard.press("Enter");
    await expectText(page, "That email and password do not match an active account.");
    await screenshot("sign-in-refused-phone");
    await close();
  });

  it("a member cannot see the API keys page nor list, create or revoke keys through tRPC", async () => {
    const { page, screenshot, signIn, trpc, close } = await open();
    await signIn("max@keys.example", password);
    await expect(page.getByRole("link", { name: "API keys" }).count()).resolves.toBe(0);
    await page.goto("/settings/api-keys");
    await expectText(page, "Only admins can see and manage API keys");
    await screenshot("member-api-keys-refused");
    expect((await trpc("apiKeys.list", undefined, "query")).status).toBe(403);
    expect((await trpc("apiKeys.create", { name: "sneaky" }, "mutation")).status).toBe(403);
    const [someKey] = await test.handle.sql`select id from api_keys limit 1`;
    expect((await trpc("apiKeys.revoke", { id: someKey!.id }, "mutation")).status).toBe(403);
    await close();
  });

  it("a demoted admin loses admin access on the next request", async () => {
    await createUser(test.ctx, { companyId, email: "dee@keys.example", name: "Dee Demoted", role: "admin", password });
    const { page, signIn, trpc, close } = await open();
    await signIn("dee@keys.example", password);
    expect((await trpc("apiKeys.list", undefined, "query")).status).toBe(200);
    await test.ctx.db.update(users).set({ role: "member" }).where(eq(users.email, "dee@keys.example"));
    expect((await trpc("apiKeys.list", undefined, "query")).status).toBe(403);
    await test.ctx.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.email, "dee@keys.example"));
    expect((await trpc("webhooks.list", undefined, "query")).status).toBe(401);
    await page.goto("/settings/webhooks");
    await page.waitForURL(/\/sign-in/);
    await close();
  });

  it("mutations must come from our own pages: a foreign Origin or a non-JSON body is refused", async () => {
    const { context, signIn, close } = await open();
    await signIn("ada@keys.example", password);
    const cookie = (await context.cookies()).map((item) => `${item.name}=${item.value}`).join("; ");
    const post = (headers: Record<string, string>) =>
      fetch(`${server.baseUrl}/api/trpc/apiKeys.create`, { method: "POST", headers: { cookie, ...headers }, body: JSON.stringify({ name: "csrf" }) });
    expect((await post({ origin: "https://evil.example", "content-type": "application/json" })).status).toBe(403);
    // tRPC itself refuses a body it was not told is JSON, before our check is reached.
    expect((await post({ origin: server.baseUrl, "content-type": "text/plain" })).status).toBe(415);
    expect((await post({ "content-type": "application/json" })).status).toBe(403);
    expect((await post({ origin: server.baseUrl, "content-type": "application/json" })).status).toBe(200);
    const created = await test.handle.sql`select count(*)::int as count from api_keys where name = 'csrf'`;
    expect(created[0]!.count).toBe(1);
    await close();
  });

  it("a suspended company's users cannot act, and cannot sign in again", async () => {
    const { page, screenshot, signIn, trpc, close } = await open();
    await signIn("ada@keys.example", password);
    await setCompanySuspended(test.ctx, companyId, true);
    try {
      expect((await trpc("apiKeys.create", { name: "while suspended" }, "mutation")).status).toBe(401);
      expect((await trpc("webhooks.list", undefined, "query")).status).toBe(401);
      await page.goto("/settings/api-keys");
      await page.waitForURL(/\/sign-in/);
      await page.getByLabel("Email").fill("ada@keys.example");
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expectText(page, "That email and password do not match an active account.");
      await screenshot("suspended-sign-in-refused");
    } finally {
      await setCompanySuspended(test.ctx, companyId, false);
    }
    // Lifting the suspension gives the same session its access back.
    await page.goto("/settings/api-keys");
    await expectText(page, "Create API key");
    await close();
  });
});
