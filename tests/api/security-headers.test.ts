/**
 * The security headers on every kind of answer of the web process (the
 * production build behind our web server): pages signed in and out, next-auth,
 * tRPC, /v1, downloads, the operator endpoints, Next.js's static files and
 * what the web server's edge answers itself. Pages get a Content-Security-Policy
 * with a fresh nonce that Next.js put on its scripts; everything else a policy
 * under which nothing loads. HSTS only when APP_URL is https.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { signInOverHttp } from "../support/http-sign-in";
import { rawExchange, type TestServer, useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const password = "correct horse battery staple";
let acme: ApiCompany;
let webhookId: string;
let cookie: string;

beforeAll(async () => {
  acme = await apiCompany(test.ctx, "Acme");
  await createUser(test.ctx, { companyId: acme.companyId, email: "ada@acme.example", name: "Ada Admin", role: "admin", password });
  webhookId = (await createWebhook(test.ctx, acme.companyId, { url: "https://localhost:9/hook" }, { allowTargets: ["localhost:9"] })).id;
  cookie = await signInOverHttp(server, "ada@acme.example", password);
});

const nonPagePolicy = "default-src 'none'; frame-ancestors 'none'";
const turnedOff = ["camera", "microphone", "geolocation", "payment", "usb", "display-capture", "serial", "hid", "midi"];

type Answer = { status: number; header: (name: string) => string | null };

/** The headers every answer carries, whatever it is. */
function expectCommonHeaders(answer: Answer, what: string, https = false) {
  expect(answer.header("x-content-type-options"), what).toBe("nosniff");
  expect(answer.header("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  expect(answer.header("x-frame-options"), what).toBe("DENY");
  const features = (answer.header("permissions-policy") ?? "").split(", ");
  for (const feature of turnedOff) expect(features, what).toContain(`${feature}=()`);
  // The copy buttons write to the clipboard, and the recording player may go full screen.
  expect(answer.header("permissions-policy"), what).not.toMatch(/clipboard|fullscreen/);
  if (https) expect(answer.header("strict-transport-security"), what).toBe("max-age=31536000");
  else expect(answer.header("strict-transport-security"), what).toBeNull();
}

const fromFetch = (response: Response): Answer => ({ status: response.status, header: (name) => response.headers.get(name) });

/** A raw answer (rawExchange), for what fetch cannot send. */
const fromRaw = (answer: { status: number; head: string }): Answer => ({
  status: answer.status,
  header: (name) => new RegExp(`^${name}: (.*)$`, "im").exec(answer.head)?.[1]?.trim() ?? null,
});

async function get(path: string, headers: Record<string, string> = {}, from: TestServer = server) {
  return fetch(`${from.baseUrl}${path}`, { headers, redirect: "manual" });
}

/**
 * A page: the common headers and a policy that allows this site only, scripts
 * only with a nonce that the page's own scripts carry, and nothing evaluated.
 */
async function expectPage(path: string, status: number, headers: Record<string, string> = {}) {
  const response = await get(path, headers);
  const what = `${path}${headers.cookie ? " (signed in)" : ""}`;
  expect(response.status, what).toBe(status);
  expectCommonHeaders(fromFetch(response), what);
  const policy = response.headers.get("content-security-policy") ?? "";
  expect(policy, what).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/=]+'; /);
  for (const directive of ["object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"]) expect(policy, what).toContain(directive);
  expect(policy.replace(/'nonce-[^']+'/, ""), what).not.toMatch(/https?:|\*|'unsafe-eval'|'strict-dynamic'/);
  if (path === "/docs") expect(policy, what).toContain("style-src 'self' 'unsafe-inline'; img-src 'self' data:;");
  else expect(policy, what).not.toMatch(/unsafe-inline|data:/);
  const body = await response.text();
  if (status === 200 || status === 404) {
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    expect(body, `${what}: Next.js's scripts carry the nonce`).toContain(`<script nonce="${nonce}"`);
    expect(body.match(/<script(?![^>]*nonce=)[^>]*>/g) ?? [], `${what}: scripts without the nonce`).toEqual([]);
  }
  return policy;
}

/** Anything but a page: the common headers and a policy under which nothing loads. */
async function expectNonPage(answer: Answer | Response, what: string, status: number, https = false) {
  const checked = answer instanceof Response ? fromFetch(answer) : answer;
  expect(checked.status, what).toBe(status);
  expectCommonHeaders(checked, what, https);
  expect(checked.header("content-security-policy"), what).toBe(nonPagePolicy);
}

describe("every answer of the web process carries the security headers", () => {
  it("pages, signed out: each with its own fresh nonce; pages behind sign-in redirect with the same headers", async () => {
    const first = await expectPage("/", 200);
    expect(await expectPage("/", 200), "a fresh nonce per answer").not.toBe(first);
    await expectPage("/sign-in", 200);
    await expectPage("/docs", 200);
    await expectPage("/docs/errors", 200);
    await expectPage(`/interview/${acme.interview.id}`, 200);
    await expectPage("/no-such-page", 404);
    for (const path of ["/settings", `/settings/webhooks/${webhookId}`, `/candidates/${acme.submitted.id}`]) await expectPage(path, 307);
  });

  it("pages, signed in", async () => {
    for (const path of [
      "/settings/webhooks",
      `/settings/webhooks/${webhookId}`,
      "/settings/api-keys",
      "/settings/events",
      `/candidates/${acme.submitted.id}`,
    ]) {
      await expectPage(path, 200, { cookie });
    }
    await expectPage("/settings", 307, { cookie });
    await expectPage("/sign-in", 307, { cookie });
  });

  it("next-auth and tRPC", async () => {
    await expectNonPage(await get("/api/auth/csrf"), "/api/auth/csrf", 200);
    await expectNonPage(await get("/api/auth/session", { cookie }), "/api/auth/session", 200);
    await expectNonPage(await get("/api/trpc/webhooks.list"), "tRPC signed out", 401);
    await expectNonPage(await get("/api/trpc/webhooks.list", { cookie }), "tRPC signed in", 200);
    const mutation = await fetch(`${server.baseUrl}/api/trpc/apiKeys.create`, {
      method: "POST",
      headers: { cookie, origin: server.baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ name: "headers" }),
    });
    await expectNonPage(mutation, "tRPC mutation", 200);
  });

  it("/v1 (200, 401, 404), its description and a download", async () => {
    const key = { authorization: `Bearer ${acme.key}` };
    await expectNonPage(await get("/v1/me", key), "/v1/me", 200);
    await expectNonPage(await get("/v1/me"), "/v1/me without a key", 401);
    await expectNonPage(await get("/v1/candidates/cand_none", key), "an unknown candidate", 404);
    await expectNonPage(await get("/v1/nope", key), "an unknown path", 404);
    await expectNonPage(await get("/v1/openapi.json"), "/v1/openapi.json", 200);
    const recording = (await (await get(`/v1/candidates/${acme.submitted.id}/recording`, key)).json()) as { data: { recording: { download_url: string } } };
    const download = await fetch(recording.data.recording.download_url);
    await expectNonPage(download, "a download", 200);
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("RIFF");
    await expectNonPage(await get("/downloads/not-a-token"), "a bad download link", 403);
  });

  it("the operator endpoints, Next.js's static files and public/'s", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics"]) await expectNonPage(await get(path), path, 200);
    const html = await (await get("/")).text();
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await get(script);
    await expectNonPage(asset, script, 200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    // The icon every page names, served from public/.
    expect(html).toMatch(/<link rel="icon" href="\/icon.svg"/);
    const icon = await get("/icon.svg");
    await expectNonPage(icon, "/icon.svg", 200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
  });

  it("what the web server's edge answers itself: a refused method, a request that is not HTTP, a change from another site", async () => {
    const trace = await rawExchange(server, "TRACE /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    await expectNonPage(fromRaw(trace), "TRACE", 405);
    await expectNonPage(fromRaw(await rawExchange(server, "HELLO THERE\r\n\r\n")), "not HTTP", 400);
    const crossSite = await fetch(`${server.baseUrl}/api/trpc/apiKeys.create`, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    await expectNonPage(crossSite, "a change from another site", 403);
  });
});

describe("when APP_URL is https", () => {
  // Reached over plain http here, as behind a proxy that ends TLS.
  const behindTls = useTestServer(test, { APP_URL: "https://interviews.example" });

  it("every answer also carries Strict-Transport-Security, for a year", async () => {
    const page = await get("/", {}, behindTls);
    expect(page.status).toBe(200);
    expectCommonHeaders(fromFetch(page), "/", true);
    await expectNonPage(await get("/v1/me", {}, behindTls), "/v1/me", 401, true);
    await expectNonPage(await get("/healthz", {}, behindTls), "/healthz", 200, true);
    await expectNonPage(fromRaw(await rawExchange(behindTls, "HELLO THERE\r\n\r\n")), "not HTTP", 400, true);
  });
});
