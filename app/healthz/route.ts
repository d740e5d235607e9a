import { toResponse } from "@/server/http/answer";
import { healthAnswer } from "@/server/observability/endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The web process is up (server/observability/endpoints.ts). */
export function GET() {
  return toResponse(healthAnswer());
}
