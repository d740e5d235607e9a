/**
 * This process's metrics, served at /metrics in Prometheus's text format by
 * the web process (app/metrics) and the worker (worker/listener.ts).
 *
 * One registry per process, kept on globalThis: Next.js bundles a module into
 * each route that imports it, and two registries would each count half.
 * Labels hold templates and fixed vocabularies only (an endpoint is
 * `/v1/candidates/{id}`, never an id), so the number of series stays small.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

const seconds = { api: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], delivery: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] };

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    apiRequests: new Counter({
      name: "interview_api_requests_total",
      help: "Requests to the /v1 API, by endpoint template, method and status.",
      labelNames: ["endpoint", "method", "status"] as const,
      registers,
    }),
    apiRequestDuration: new Histogram({
      name: "interview_api_request_duration_seconds",
      help: "Time from a /v1 request's arrival to its answer (the body of a download streams after it).",
      labelNames: ["endpoint", "method"] as const,
      buckets: seconds.api,
      registers,
    }),
    apiRateLimited: new Counter({
      name: "interview_api_rate_limited_total",
      help: "/v1 requests refused with 429 because the key's or the company's rate limit was spent.",
      labelNames: ["endpoint"] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "interview_webhook_deliveries_total",
      help: "Webhook messages the dispatcher handled, by recorded outcome and the attempt's error class (none without a failed request).",
      labelNames: ["outcome", "error_class"] as const,
      registers,
    }),
    webhookDeliveryDuration: new Histogram({
      name: "interview_webhook_delivery_duration_seconds",
      help: "Duration of webhook requests sent, from connecting to the end of the answer, by recorded outcome.",
      labelNames: ["outcome"] as const,
      buckets: seconds.delivery,
      registers,
    }),
    emails: new Counter({
      name: "interview_emails_total",
      help: "Emails to company admins handed to the SMTP server (sent) or refused by it (failed; tried again later).",
      labelNames: ["outcome"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const shared = globalThis as unknown as { __interviewMetrics?: Metrics };

export function metrics(): Metrics {
  shared.__interviewMetrics ??= createMetrics();
  return shared.__interviewMetrics;
}
