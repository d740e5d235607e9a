/**
 * Debian's Chromium driven by playwright-core (no browser is ever downloaded).
 * Without Chromium the browser tests are skipped with a notice, unless
 * REQUIRE_BROWSER=1 (set by .ci/run), which makes a missing browser a failure.
 * With TEST_SCREENSHOTS=1, the pages a test shows are saved as screenshots
 * in test-artifacts/ (a full-page PNG costs a tenth of a browser file's time,
 * so a plain run takes none).
 * A test fails when a page broke a rule of its Content-Security-Policy (or
 * Chromium could not read its Permissions-Policy), whatever else it checks.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page, type ViewportSize } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import type { TestServer } from "./server";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasBrowser = existsSync(chromiumPath);

if (!hasBrowser && process.env.REQUIRE_BROWSER === "1") {
  throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${chromiumPath} (install it: apt-get install -y chromium).`);
}
if (!hasBrowser) {
  process.stderr.write(`\n  Browser tests SKIPPED: no Chromium at ${chromiumPath}. Install it with \`apt-get install -y chromium\`.\n\n`);
}

/**
 * A browser test walks through many pages of the production build; on a slow
 * machine some take 25 to 30 s, which the default 30 s would cut off.
 */
const browserTestTimeout = 90_000;

/**
 * How long one wait on a page (a navigation, an element, a URL) may take.
 * The browser files run beside the rest of the suite on two cores: on CI a
 * search's soft navigation (one request to the server, made by a click) once
 * had not arrived after 15 s, though it takes well under a second alone.
 */
const pageWaitTimeout = 30_000;

/** `describe` for browser tests, each with a longer time limit: skipped (see above) when there is no Chromium. */
export const describeInBrowser = (name: string, tests: () => void) => (hasBrowser ? describe : describe.skip)(name, { timeout: browserTestTimeout }, tests);

/** Whether screenshots are saved in this run (TEST_SCREENSHOTS=1). */
export const keepScreenshots = process.env.TEST_SCREENSHOTS === "1";

/** The machine's network is closed: these flags stop Chromium calling home, which would fail noisily. */
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type BrowserSession = {
  page: Page;
  context: BrowserContext;
  /**
   * Saves the page as test-artifacts/browser/<suite>/<nn>-<name>.png, with
   * TEST_SCREENSHOTS=1; `evidence` saves it in every run (a page that broke a
   * rule the test then fails on).
   */
  screenshot: (name: string, options?: { evidence?: boolean }) => Promise<void>;
  signIn: (email: string, password: string) => Promise<void>;
  /** Calls the settings tRPC API from inside the page, as the page's own code would. */
  trpc: (procedure: string, input: unknown, kind: "query" | "mutation") => Promise<{ status: number; body: any }>;
  close: () => Promise<void>;
};

/**
 * Chromium logs every refusal of a page's policy as a console error naming
 * the Content-Security-Policy ("Refused to execute inline script because it
 * violates …"), and a Permissions-Policy it cannot read likewise.
 */
const policyMessage = /Content Security Policy|securitypolicyviolation|Permissions-Policy/;

/**
 * Logs each `securitypolicyviolation` event as well: it also says what was
 * blocked, and fires for violations Chromium would only report.
 */
function logPolicyViolations() {
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(`securitypolicyviolation: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
  });
}

export function useBrowser(server: TestServer, suite: string) {
  let browser: Browser | undefined;
  let shots = 0;
  const artifacts = path.resolve("test-artifacts", "browser", suite);
  /** What the pages of the running test did against their policies. */
  const violations: string[] = [];
  beforeAll(async () => {
    // Cleared on every run, so no screenshot of an earlier run passes for this one's (Playwright makes the folder when it saves one).
    rmSync(artifacts, { recursive: true, force: true });
    // Playwright starts Chromium on a new, empty profile of its own and removes it on close.
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });
  afterEach(() => {
    const found = violations.splice(0);
    expect(found, "Content-Security-Policy violations").toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * A fresh browser profile (no cookies) at a laptop or a phone size, or at the
   * size given; in the machine's locale and time zone unless given others.
   */
  return async function open(
    viewport: "laptop" | "phone" | ViewportSize = "laptop",
    { locale, timezoneId }: { locale?: string; timezoneId?: string } = {},
  ): Promise<BrowserSession> {
    const context = await browser!.newContext({
      baseURL: server.baseUrl,
      locale,
      timezoneId,
      viewport: viewport === "laptop" ? { width: 1280, height: 800 } : viewport === "phone" ? { width: 390, height: 844 } : viewport,
    });
    await context.addInitScript(logPolicyViolations);
    context.on("console", (message) => {
      if (policyMessage.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
    });
    const page = await context.newPage();
    page.setDefaultTimeout(pageWaitTimeout);
    const session: BrowserSession = {
      page,
      context,
      screenshot: async (name, { evidence = false } = {}) => {
        if (!keepScreenshots && !evidence) return;
        shots += 1;
        await page.screenshot({ path: path.join(artifacts, `${String(shots).padStart(2, "0")}-${name}.png`), fullPage: true });
      },
      signIn: async (email, password) => {
        await page.goto("/sign-in");
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Password").fill(password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(/\/settings\//);
      },
      trpc: (procedure, input, kind) =>
        page.evaluate(
          async ({ procedure, input, kind }) => {
            const response =
              kind === "query"
                ? await fetch(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
                : await fetch(`/api/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
            return { status: response.status, body: await response.json() };
          },
          { procedure, input, kind },
        ),
      close: () => context.close(),
    };
    return session;
  };
}

/**
 * Waits until the page's text shows `text`, and fails with that text when it
 * does not, which says more than a timeout. The page's text, not one element's:
 * the API reference writes "GET /candidates" across several elements, which no
 * `getByText` matches.
 */
export async function expectText(page: Page, text: string | RegExp) {
  await expect
    .poll(() => page.locator("body").innerText(), { message: `expected the page to show ${text}`, timeout: pageWaitTimeout, interval: 100 })
    .toMatch(text);
}

/**
 * Opens the page's address again, scrolled to the top. `page.reload()` makes
 * Chromium restore the scroll position once the page's data has loaded, which
 * can move another button under a click that was aimed a moment before.
 */
export async function reopen(page: Page) {
  await page.goto(page.url());
}
