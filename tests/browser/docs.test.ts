/**
 * /docs in Chromium against the production build: the API reference and every
 * guide render under their Content-Security-Policy, load nothing from another
 * origin and break no rule of the policy.
 */
import { beforeAll, expect, it } from "vitest";
import { guides } from "@/app/docs/guides";
import { createApiKey } from "@/server/domain/accounts";
import { type BrowserSession, describeInBrowser, expectText, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const open = useBrowser(server, "docs");
let key: string;

beforeAll(async () => {
  const companyId = await makeCompany(test.ctx, "Docs Readers");
  key = (await createApiKey(test.ctx, { companyId, name: "trying the reference" })).key;
});

/** What no page may do, recorded by every watched session. */
const foreignRequests: string[] = [];
const pageErrors: string[] = [];
const expectNothingForeignOrRefused = () => {
  expect(foreignRequests, "requests to another origin").toEqual([]);
  expect(pageErrors, "policy violations and console errors").toEqual([]);
};

/**
 * A session whose requests to another origin are refused and recorded, and
 * whose console errors are recorded (policy violations among them, which
 * fail every browser test anyway: tests/support/browser.ts).
 */
async function watchedSession(viewport: "laptop" | "phone" = "laptop"): Promise<BrowserSession> {
  const session = await open(viewport);
  const origin = new URL(server.baseUrl).origin;
  await session.context.route(
    (url) => url.origin !== origin,
    (route) => {
      foreignRequests.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  session.page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) foreignRequests.push(request.url());
  });
  session.page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`${session.page.url()}: ${message.text()}`);
  });
  session.page.on("pageerror", (error) => pageErrors.push(`${session.page.url()}: ${error.message}`));
  return session;
}

it("/docs and its guides are served with a same-origin Content-Security-Policy and a fresh script nonce; only the reference allows inline styles", async () => {
  const policies: string[] = [];
  for (const path of ["/docs", "/docs", ...guides.map((guide) => guide.href)]) {
    const response = await fetch(`${server.baseUrl}${path}`);
    expect(response.status, path).toBe(200);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy, path).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/=]+'; /);
    // No other origin, scheme or wildcard anywhere, and nothing evaluated.
    expect(policy.replace(/'nonce-[^']+'/, ""), path).not.toMatch(/https?:|\*|'unsafe-eval'|'strict-dynamic'/);
    expect(policy, path).toContain("frame-ancestors 'none'");
    if (path === "/docs") expect(policy).toContain("style-src 'self' 'unsafe-inline'; img-src 'self' data:;");
    else expect(policy, path).not.toMatch(/unsafe-inline|data:/);
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    expect(await response.text(), path).toContain(`nonce="${nonce}"`);
    policies.push(policy);
  }
  expect(policies[0]).not.toBe(policies[1]);
});

describeInBrowser("the documentation in the browser", () => {
  it("the home page links to the reference, which shows every endpoint and webhook of the served document and links every guide", async () => {
    const { page, screenshot, close } = await watchedSession();
    await page.goto("/");
    await page.getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(/\/docs$/);

    const document = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
      webhooks?: Record<string, { post: { summary: string } }>;
    };
    const paths = Object.keys(document.paths);
    expect(paths).toContain("/candidates");
    await expectText(page, /GET\s*\/candidates/);
    for (const path of paths) await expectText(page, path);
    for (const webhook of Object.values(document.webhooks ?? {})) await expectText(page, webhook.post.summary);
    await screenshot("reference");

    for (const guide of guides) await expect(page.getByRole("link", { name: guide.title }).first().getAttribute("href")).resolves.toBe(guide.href);

    // Trying an endpoint from the reference calls this API, from this origin, under the page's policy.
    await page.getByRole("button", { name: /Test Request.*get \/me/ }).click();
    const client = page.getByRole("dialog");
    await client.getByPlaceholder("Token").fill(key);
    await client.getByRole("button", { name: /^Send get request to/ }).click();
    await client.getByText("200 OK").first().waitFor();
    await client.getByText("Docs Readers").first().waitFor();
    await screenshot("reference-test-request");
    await close();
    expectNothingForeignOrRefused();
  });

  it("every guide renders, links the reference and the next guide, and reads on a phone", async () => {
    const { page, screenshot, close } = await watchedSession();
    for (const [index, guide] of guides.entries()) {
      await page.goto(guide.href);
      await page.getByRole("heading", { level: 1, name: guide.title }).waitFor();
      await expect(page.getByRole("navigation", { name: "Next" }).getByRole("link", { name: "API reference" }).getAttribute("href")).resolves.toBe("/docs");
      const next = guides[index + 1];
      if (next) await expect(page.getByRole("link", { name: `Next: ${next.title}` }).getAttribute("href")).resolves.toBe(next.href);
      await screenshot(guide.href.replace("/docs/", "guide-"));
    }
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await page.waitForURL(/\/docs\/webhooks$/);
    for (const header of ["Service-Event-Id", "Service-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]) await expectText(page, header);
    for (const section of ["Custom headers", "Conditions"]) await page.getByRole("heading", { level: 2, name: section, exact: true }).waitFor();
    // From a guide (whose policy refuses inline styles) the reference still renders: it is loaded with its own policy.
    await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(/\/docs$/);
    await expectText(page, /GET\s*\/candidates/);
    await close();

    const phone = await watchedSession("phone");
    await phone.page.goto("/docs/verifying-signatures");
    await phone.page.getByRole("heading", { level: 1, name: "Verifying webhook signatures" }).waitFor();
    await phone.screenshot("guide-on-a-phone");
    await phone.page.goto("/docs");
    await expectText(phone.page, "/candidates");
    await phone.screenshot("reference-on-a-phone");
    await phone.close();
    expectNothingForeignOrRefused();
  });
});
