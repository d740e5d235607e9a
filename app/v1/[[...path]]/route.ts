import { handleV1Request } from "@/server/api/http/v1-handler";

export const dynamic = "force-dynamic";

// The API is read-only: every method reaches the handler, which answers
// anything but GET with 405.
export const GET = handleV1Request;
export const HEAD = handleV1Request;
export const POST = handleV1Request;
export const PUT = handleV1Request;
export const PATCH = handleV1Request;
export const DELETE = handleV1Request;
export const OPTIONS = handleV1Request;
