/**
 * /metrics on both process kinds, read as Prometheus would: the real web
 * server (the production build) and the real worker process, with METRICS_TOKEN set.
 * The text is checked by our own strict reader of the exposition format
 * (tests/support/prometheus-text.ts), and the counters must move with real
 * /v1 requests and real deliveries to the loopback HTTPS receiver.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhooks } from "@/db/schema";
import { createUser } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { loadInterview } from "@/server/domain/interviews";
import { parseEnv } from "@/server/env";
import { queueAdminEmail, sendQueuedEmail } from "@/server/notifications/email";
import { metrics } from "@/server/observability/metrics";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { defaultWorkerHttpPort } from "@/worker/listener";
import { apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { type Family, parsePrometheusText, sampleValue } from "../support/prometheus-text";
import { useProcessReceiver } from "../support/receiver";
import { callApi, useTestServer } from "../support/server";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const token = "metrics-token-for-the-tests-0123";
const test = useTestDatabase();
const delivery = useProcessReceiver();

const web = useTestServer(test, { METRICS_TOKEN: token, RATE_LIMIT_PER_KEY: "8" });
const startWorker = useWorkerProcesses(() => ({
  DATABASE_URL: test.url,
  FILE_STORAGE_DIR: test.filesDir,
  WEBHOOK_ALLOW_TARGETS: delivery.receiver.target,
  WEBHOOK_CA_FILE: delivery.caFile,
  METRICS_TOKEN: token,
}));

/** A candidate who completed, was scored and recorded, and submits now (on the real clock, which the worker reads too). */
async function submitNow(interviewId: string, email: string) {
  const candidate = await startCandidate(test.ctx, interviewId, { email });
  await completeSteps(test.ctx, await loadInterview(test.ctx.db, interviewId), candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  test.clock.set(new Date());
  await submitAttempt(test.ctx, candidate.id);
}

async function scrape(base: string, authorization?: string) {
  const response = await fetch(`${base}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function metricsOf(base: string): Promise<Map<string, Family>> {
  const answer = await scrape(base, `Bearer ${token}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parsePrometheusText(answer.text);
}

/** How much each sample moved between two scrapes. */
const moved = (before: Map<string, Family>, after: Map<string, Family>, name: string, labels: Record<string, string>) =>
  sampleValue(after, name, labels) - sampleValue(before, name, labels);

describe("/metrics", { timeout: 90_000 }, () => {
  it("answers only with the token, on the web server and the worker", async () => {
    const worker = await startWorker();
    for (const base of [web.baseUrl, worker.httpUrl]) {
      for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef", `Basic ${token}`, `Bearer ${token}x`, token]) {
        const refused = await scrape(base, authorization);
        expect(refused.status, `${base} with ${authorization}`).toBe(401);
        expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
        expect(refused.text).not.toContain("process_cpu");
      }
      const families = await metricsOf(base);
      // The default process metrics, on both.
      expect(families.get("process_cpu_user_seconds_total")?.type).toBe("counter");
      expect(families.get("nodejs_heap_size_used_bytes")?.type).toBe("gauge");
      expect(families.get("interview_api_requests_total")?.type).toBe("counter");
    }
  });

  it("is not part of the public API", async () => {
    for (const endpoint of ["/v1/metrics", "/v1/metrics/"]) {
      const answer = await callApi(web, endpoint, { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ success: false, error: "not_found" });
      expect(JSON.stringify(answer.body)).not.toContain("interview_api_requests_total");
    }
  });

  it("counts /v1 requests by endpoint template, method and status, with their latency; never an id", async () => {
    const company = await apiCompany(test.ctx, "Counted");
    const before = await metricsOf(web.baseUrl);
    for (const id of [company.submitted.id, company.submitted.id, company.inProgress.id]) {
      expect((await callApi(web, `/v1/candidates/${id}`, { key: company.key })).status).toBe(200);
    }
    expect((await callApi(web, `/v1/candidates/${company.submitted.id}/transcript`, { key: company.key })).status).toBe(200);
    expect((await callApi(web, "/v1/no-such-endpoint", { key: company.key })).status).toBe(404);
    expect((await callApi(web, "/v1/me", { method: "POST", key: company.key })).status).toBe(405);
    const answer = await scrape(web.baseUrl, `Bearer ${token}`);
    const after = parsePrometheusText(answer.text);

    const requests = "interview_api_requests_total";
    expect(moved(before, after, requests, { endpoint: "/v1/candidates/{id}", method: "GET", status: "200" })).toBe(3);
    expect(moved(before, after, requests, { endpoint: "/v1/candidates/{id}/transcript", method: "GET", status: "200" })).toBe(1);
    expect(moved(before, after, requests, { endpoint: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(moved(before, after, requests, { endpoint: "/v1/me", method: "POST", status: "405" })).toBe(1);
    const durations = "interview_api_request_duration_seconds_count";
    expect(moved(before, after, durations, { endpoint: "/v1/candidates/{id}", method: "GET" })).toBe(3);
    expect(after.get("interview_api_request_duration_seconds")?.type).toBe("histogram");
    for (const id of [company.submitted.id, company.inProgress.id, company.companyId, company.key]) expect(answer.text).not.toContain(id);
  });

  it("counts requests refused by the rate limit", async () => {
    const company = await apiCompany(test.ctx, "Limited");
    const before = await metricsOf(web.baseUrl);
    const statuses: number[] = [];
    for (let request = 0; request < 14; request++) statuses.push((await callApi(web, "/v1/me", { key: company.key })).status);
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBeGreaterThan(0);
    const after = await metricsOf(web.baseUrl);
    expect(moved(before, after, "interview_api_rate_limited_total", { endpoint: "/v1/me" })).toBe(refused);
    expect(moved(before, after, "interview_api_requests_total", { endpoint: "/v1/me", status: "429" })).toBe(refused);
  });

  it("counts the worker's deliveries by outcome and error class, with latencies, and reads the queues from the database", async () => {
    const worker = await startWorker();
    const before = await metricsOf(worker.httpUrl);
    const companyId = await makeCompany(test.ctx, "Delivered");
    const interview = await makeInterview(test.ctx, companyId);
    delivery.receiver.answer((request) => (request.path === "/refusing" ? { status: 500, body: "down" } : { status: 200 }));
    await createWebhook(test.ctx, companyId, { url: delivery.receiver.url("/accepting") }, allowReceiver(delivery.receiver));
    const refusing = await createWebhook(test.ctx, companyId, { url: delivery.receiver.url("/refusing") }, allowReceiver(delivery.receiver));
    const off = await createWebhook(test.ctx, companyId, { url: delivery.receiver.url("/off") }, allowReceiver(delivery.receiver));
    await test.ctx.db.update(webhooks).set({ enabled: false }).where(eq(webhooks.id, off.id));

    await submitNow(interview.id, "counted@example.com");

    // Three events: all three accepted by one webhook; the other refuses the first, and holds the rest behind it for a minute.
    await expect
      .poll(
        async () => {
          const now = await metricsOf(worker.httpUrl);
          return [
            moved(before, now, "interview_webhook_deliveries_total", { outcome: "succeeded", error_class: "none" }),
            moved(before, now, "interview_webhook_deliveries_total", { outcome: "retry_scheduled", error_class: "http_status" }),
          ];
        },
        { timeout: 20_000, interval: 250 },
      )
      .toEqual([3, 1]);
    const after = await metricsOf(worker.httpUrl);
    expect(moved(before, after, "interview_webhook_delivery_duration_seconds_count", { outcome: "succeeded" })).toBe(3);
    expect(moved(before, after, "interview_webhook_delivery_duration_seconds_count", { outcome: "retry_scheduled" })).toBe(1);
    expect(after.get("interview_webhook_delivery_duration_seconds")?.type).toBe("histogram");
    expect(delivery.receiver.received.filter((request) => request.path === "/refusing")).toHaveLength(1);

    // The gauges are read at most every 5 seconds.
    await expect
      .poll(
        async () => {
          const now = await metricsOf(worker.httpUrl);
          return {
            up: sampleValue(now, "interview_database_up"),
            held: sampleValue(now, "interview_webhook_messages_waiting", { state: "held" }),
            ready: sampleValue(now, "interview_webhook_messages_waiting", { state: "ready" }),
            running: sampleValue(now, "interview_webhook_messages_waiting", { state: "running" }),
            unsendable: sampleValue(now, "interview_webhook_messages_unsendable"),
            failing: sampleValue(now, "interview_webhooks", { state: "in_failure_run" }),
            disabled: sampleValue(now, "interview_webhooks", { state: "disabled" }),
            oldestDue: sampleValue(now, "interview_webhook_oldest_due_message_age_seconds"),
            jobStates: now
              .get("interview_jobs_queued")
              ?.samples.map((sample) => sample.labels.state)
              .sort(),
          };
        },
        { timeout: 15_000, interval: 500 },
      )
      .toEqual({
        up: 1,
        held: 2,
        ready: 1,
        running: 0,
        unsendable: 0,
        failing: 1,
        disabled: 1,
        oldestDue: 0,
        jobStates: ["due", "failed", "running", "scheduled"],
      });
    expect(refusing.id).toBeTruthy();
  });

  it("counts a waiting message whose request our side cannot make as unsendable, stuck since it was queued", async () => {
    const worker = await startWorker();
    const companyId = await makeCompany(test.ctx, "Unsendable");
    const interview = await makeInterview(test.ctx, companyId);
    const broken = await createWebhook(
      test.ctx,
      companyId,
      { url: delivery.receiver.url("/unreadable-secret"), eventTypes: ["candidate.submitted"] },
      allowReceiver(delivery.receiver),
    );
    // A secret that cannot be decrypted (an APP_SECRET changed without the webhooks' secrets): no request can be signed.
    await test.ctx.db.update(webhooks).set({ secretCiphertext: "v1.unreadable" }).where(eq(webhooks.id, broken.id));

    await submitNow(interview.id, "unsendable@example.com");

    await expect
      .poll(
        async () => {
          const now = await metricsOf(worker.httpUrl);
          return {
            unsendable: sampleValue(now, "interview_webhook_messages_unsendable"),
            stuck: sampleValue(now, "interview_webhook_oldest_due_message_age_seconds") > 0,
          };
        },
        { timeout: 20_000, interval: 500 },
      )
      .toEqual({ unsendable: 1, stuck: true });
    expect(delivery.receiver.received.filter((request) => request.path === "/unreadable-secret")).toEqual([]);
  });

  it("counts emails sent and refused by the SMTP server", async () => {
    const companyId = await makeCompany(test.ctx, "Mailed");
    await createUser(test.ctx, { companyId, email: "admin@mailed.example", name: "Admin", role: "admin", password: "long enough password" });
    const queue = () => test.ctx.db.transaction((tx) => queueAdminEmail(tx, test.ctx, { companyId, kind: "test", subject: "Hello", body: "Hi" }));
    const counted = async (outcome: string) => (await metrics().emails.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
    const [sentBefore, failedBefore] = [await counted("sent"), await counted("failed")];

    await sendQueuedEmail(test.ctx, { send: async () => {} }, await queue());
    const refusing = { send: () => Promise.reject(new Error("SMTP unreachable")) };
    await expect(sendQueuedEmail(test.ctx, refusing, await queue())).rejects.toThrow("SMTP unreachable");

    expect([(await counted("sent")) - sentBefore, (await counted("failed")) - failedBefore]).toEqual([1, 1]);
    expect(parsePrometheusText(await metrics().registry.metrics()).get("interview_emails_total")?.type).toBe("counter");
  });
});

describe("the operations settings", () => {
  const secrets = { NODE_ENV: "production" as const, APP_SECRET: "a".repeat(32), NEXTAUTH_SECRET: "b".repeat(32) };
  it("default to a worker listener on 127.0.0.1:3001 and open metrics", () => {
    const parsed = parseEnv(secrets);
    expect({ host: parsed.WORKER_HTTP_HOST, port: parsed.WORKER_HTTP_PORT ?? defaultWorkerHttpPort }).toEqual({ host: "127.0.0.1", port: 3001 });
    expect(parsed.METRICS_TOKEN).toBeUndefined();
  });

  it("refuse a short metrics token and a port out of range, naming the setting", () => {
    expect(() => parseEnv({ ...secrets, METRICS_TOKEN: "short" })).toThrow("METRICS_TOKEN: must be at least 16 characters");
    expect(() => parseEnv({ ...secrets, WORKER_HTTP_PORT: "70000" })).toThrow("WORKER_HTTP_PORT");
    const blankToken = parseEnv({ ...secrets, WORKER_HTTP_PORT: "0", METRICS_TOKEN: "  " });
    expect([blankToken.WORKER_HTTP_PORT, blankToken.METRICS_TOKEN]).toEqual([0, undefined]);
  });
});
