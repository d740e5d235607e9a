import { methodNotAllowed } from "@/server/api/errors";
import { newTraceId } from "@/server/api/http/error-envelope";
import { openApiDocument } from "@/server/api/http/openapi-document";
import { errorResponse } from "@/server/api/http/v1-handler";

export const dynamic = "force-dynamic";

/** The API description; needs no key. */
export function GET() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}

const refuse = () => errorResponse(methodNotAllowed(), newTraceId());
export const HEAD = refuse;
export const POST = refuse;
export const PUT = refuse;
export const PATCH = refuse;
export const DELETE = refuse;
export const OPTIONS = refuse;
