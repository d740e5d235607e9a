/** Rate limits: per key and per company, decided atomically in PostgreSQL and shared by every web process. */
import { describe, expect, it } from "vitest";
import { createApiKey, setCompanyRateLimits } from "@/server/domain/accounts";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { callApi, useTestServer } from "../support/server";

const test = useTestDatabase();
const first = useTestServer(test);
const second = useTestServer(test);

async function keysOf(name: string, count: number) {
  const companyId = await makeCompany(test.ctx, name);
  const keys = [];
  for (let index = 0; index < count; index++) keys.push((await createApiKey(test.ctx, { companyId, name: `k${index}` })).key);
  return { companyId, keys };
}

/**
 * Sends `count` requests at once, spread over both web processes. The limit
 * refills continuously (120 per minute is one every 500 ms), so a burst that
 * lasts `elapsed` may admit that many more on top of the limit.
 */
async function burst(keys: string[], count: number) {
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: count }, (_, index) => callApi(index % 2 ? second : first, "/v1/me", { key: keys[index % keys.length]! })),
  );
  const refilled = (perMinute: number) => Math.ceil((performance.now() - started) / (60_000 / perMinute));
  return Object.assign(responses, { refilled });
}

describe("rate limits", () => {
  it("allow exactly 120 requests per minute for one key, across web processes", async () => {
    const { keys } = await keysOf("PerKey", 1);
    const responses = await burst(keys, 130);
    const admitted = responses.filter((r) => r.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(120);
    expect(admitted).toBeLessThanOrEqual(120 + responses.refilled(120));
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(130 - admitted);
    for (const response of refused) {
      expect(response.body).toMatchObject({ success: false, error: "rate_limited" });
      const retryAfter = response.headers.get("retry-after")!;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("ratelimit-remaining")).toBe("0");
    }
  });

  it("allow 300 per minute for a company, whatever the number of keys", async () => {
    const { keys } = await keysOf("PerCompany", 4);
    const responses = await burst(keys, 340);
    const admitted = responses.filter((r) => r.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(300);
    expect(admitted).toBeLessThanOrEqual(300 + responses.refilled(300));
    expect(responses.filter((r) => r.status === 429)).toHaveLength(340 - admitted);
  });

  it("take a company's own limits and report them in the headers", async () => {
    const { companyId, keys } = await keysOf("Override", 2);
    await setCompanyRateLimits(test.ctx, companyId, { perKey: 5, perCompany: 8 });
    const one = await callApi(first, "/v1/me", { key: keys[0] });
    expect(one.headers.get("ratelimit-limit")).toBe("5");
    expect(one.headers.get("ratelimit-remaining")).toBe("4");
    expect(Number(one.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    const rest = await burst(keys, 10);
    const admitted = rest.filter((r) => r.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(7);
    expect(admitted).toBeLessThanOrEqual(7 + rest.refilled(8));
  });

  it("count requests that fail validation or find nothing, and send the headers on them", async () => {
    const { companyId, keys } = await keysOf("Counted", 1);
    await setCompanyRateLimits(test.ctx, companyId, { perKey: 3, perCompany: null });
    const statuses = [];
    for (const path of ["/v1/candidates?limit=99", "/v1/candidates/cand_nope", "/v1/me", "/v1/me"]) {
      const response = await callApi(first, path, { key: keys[0] });
      statuses.push(response.status);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
    }
    expect(statuses).toEqual([422, 404, 200, 429]);
  });
});
