import { handleDownload } from "@/server/api/http/download-handler";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

const serve = async (request: Request, { params }: Params) => handleDownload(request, (await params).token);

export const GET = serve;
export const POST = serve;
export const PUT = serve;
export const PATCH = serve;
export const DELETE = serve;
