import { appDatabase } from "@/server/app-database";
import { toResponse } from "@/server/http/answer";
import { readinessAnswer } from "@/server/observability/endpoints";
import { databaseReadiness } from "@/server/observability/readiness";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The web process can serve: its database answers and is fully migrated (server/observability/readiness.ts). */
export async function GET() {
  return toResponse(await readinessAnswer(databaseReadiness(appDatabase().sql)));
}
