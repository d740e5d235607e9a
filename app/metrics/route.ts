import { toResponse } from "@/server/http/answer";
import { metricsAnswer } from "@/server/observability/endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The web process's metrics (server/observability/endpoints.ts). */
export async function GET(request: Request) {
  return toResponse(await metricsAnswer(request.headers.get("authorization")));
}
