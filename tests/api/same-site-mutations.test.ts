/**
 * Changes only from this site's pages, against the production build: a tRPC
 * mutation, signing in and signing out are refused with 403 and the API's
 * envelope when their `Origin` (or, without one, `Sec-Fetch-Site`) is another
 * site, or when they say neither; same-origin ones go through, by APP_URL's
 * origin or by the request's own host. Reads and the API are not affected.
 */
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/server/domain/accounts";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { postSignIn, signInOverHttp } from "../support/http-sign-in";
import { useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const password = "correct horse battery staple";
let companyId: string;
let cookie: string;

beforeAll(async () => {
  companyId = await makeCompany(test.ctx, "Same Site Ltd");
  await createUser(test.ctx, { companyId, email: "ada@same-site.example", name: "Ada Admin", role: "admin", password });
  cookie = await signInOverHttp(server, "ada@same-site.example", password);
});

type Answer = { status: number; body: string };

/** A request with exactly these headers (fetch would not send another `Host`). */
function send(method: string, path: string, headers: Record<string, string>, body = ""): Promise<Answer> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method, path, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, body: text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const createKey = (name: string, headers: Record<string, string>) =>
  send("POST", "/api/trpc/apiKeys.create", { cookie, "content-type": "application/json", ...headers }, JSON.stringify({ name }));

const keysNamed = async (name: string) => (await test.handle.sql`select count(*)::int as count from api_keys where name = ${name}`)[0]!.count as number;

/** The refusal: 403 with the API's envelope, which names nothing of the request. */
function expectRefused(answer: Answer, what: string) {
  expect(answer.status, what).toBe(403);
  const body = JSON.parse(answer.body);
  expect(body, what).toMatchObject({ success: false, error: "permission_denied", details: null, trace_id: expect.any(String) });
  expect(body.message, what).toMatch(/only from this site's own pages/);
}

describe("a settings mutation", () => {
  it("from another site is refused before it reaches tRPC, and changes nothing", async () => {
    const otherPort = String(Number(new URL(server.baseUrl).port) + 1);
    for (const [what, headers] of [
      ["another site's Origin", { origin: "https://evil.example" }],
      ["this host on another port", { origin: `http://127.0.0.1:${otherPort}` }],
      ["this host over https", { origin: "https://127.0.0.1" }],
      ["an opaque Origin (a sandboxed frame)", { origin: "null" }],
      ["a malformed Origin", { origin: "not a url" }],
      ["no Origin, Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
      ["no Origin, Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
      ["no Origin, Sec-Fetch-Site: none", { "sec-fetch-site": "none" }],
      ["neither header", {}],
    ] as const) {
      expectRefused(await createKey("cross-site", headers), what);
    }
    expect(await keysNamed("cross-site")).toBe(0);
  });

  it("from this site goes through: by APP_URL's origin, by the request's own host (behind a proxy with another name), or by Sec-Fetch-Site", async () => {
    const host = new URL(server.baseUrl).host;
    for (const [what, headers] of [
      ["APP_URL's origin", { origin: server.baseUrl }],
      ["APP_URL's origin, reached under another name", { origin: server.baseUrl, host: "interviews.example" }],
      ["the request's own host", { origin: "http://interviews.example", host: "interviews.example" }],
      ["no Origin, Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin", host }],
    ] as const) {
      const answer = await createKey("same-site", headers);
      expect(answer.status, `${what}: ${answer.body}`).toBe(200);
    }
    expect(await keysNamed("same-site")).toBe(4);
  });

  it("reads and the API are not affected: a query from another site is answered (its answer stays unreadable there without CORS), /v1 answers 405", async () => {
    const query = await send("GET", "/api/trpc/apiKeys.list", { cookie, origin: "https://evil.example" });
    expect(query.status).toBe(200);
    const api = await send("POST", "/v1/me", { origin: "https://evil.example" });
    expect(api.status).toBe(405);
    expect(JSON.parse(api.body)).toMatchObject({ success: false, error: "permission_denied" });
  });
});

describe("signing in and out", () => {
  it("a sign-in posted from another site is refused, with the right password, and sets no session", async () => {
    const refused: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }, {}];
    for (const headers of refused) {
      const { response, cookies } = await postSignIn(server, "ada@same-site.example", password, headers);
      expectRefused({ status: response.status, body: await response.text() }, JSON.stringify(headers));
      expect(cookies.filter((item) => item.includes("session-token"))).toEqual([]);
    }
    const { response, cookies } = await postSignIn(server, "ada@same-site.example", password, { Origin: server.baseUrl });
    expect(response.status).toBe(200);
    expect(cookies.some((item) => item.startsWith("next-auth.session-token="))).toBe(true);
  });

  it("a sign-out posted from another site is refused", async () => {
    const csrf = (await (await fetch(`${server.baseUrl}/api/auth/csrf`, { headers: { cookie } })).json()) as { csrfToken: string };
    const body = new URLSearchParams({ csrfToken: csrf.csrfToken }).toString();
    const headers = { cookie, "content-type": "application/x-www-form-urlencoded" };
    expectRefused(await send("POST", "/api/auth/signout", { ...headers, origin: "https://evil.example" }, body), "sign-out from another site");
  });
});
