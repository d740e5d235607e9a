/**
 * The operator's endpoints, answered the same way by the web process (app/
 * metrics, app/healthz, app/readyz) and the worker's listener:
 *
 * - /healthz: the process is up and answering (200 `{"status":"ok"}`);
 * - /readyz: it can do its work (200 `{"status":"ready"}`), else 503
 *   `{"status":"unavailable","reason":…}`;
 * - /metrics: Prometheus text. With METRICS_TOKEN set, only for requests with
 *   `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); the probes stay
 *   open, since load balancers and orchestrators call them without one.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/server/env";
import type { Answer } from "@/server/http/answer";
import { bearerToken } from "@/server/security/bearer-token";
import { metrics } from "./metrics";
import type { Readiness } from "./readiness";

const json = (status: number, body: object): Answer => ({
  status,
  headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  body: JSON.stringify(body),
});

export const healthAnswer = (): Answer => json(200, { status: "ok" });

export async function readinessAnswer(readiness: Promise<Readiness>): Promise<Answer> {
  const answer = await readiness;
  return answer.ready ? json(200, { status: "ready" }) : json(503, { status: "unavailable", reason: answer.reason });
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compares digests, so the time taken says nothing about the token, its length included. */
function mayReadMetrics(authorization: string | null): boolean {
  if (!env.METRICS_TOKEN) return true;
  return timingSafeEqual(digest(bearerToken(authorization) ?? ""), digest(env.METRICS_TOKEN));
}

/** This process's metrics, followed by `extra` (the worker's database gauges). */
export async function metricsAnswer(authorization: string | null, extra?: () => Promise<string>): Promise<Answer> {
  if (!mayReadMetrics(authorization)) {
    return {
      status: 401,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "WWW-Authenticate": 'Bearer realm="metrics"' },
      body: JSON.stringify({ error: "unauthorized", message: "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`." }),
    };
  }
  const { registry } = metrics();
  const text = `${await registry.metrics()}${extra ? await extra() : ""}`;
  return { status: 200, headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" }, body: text };
}
