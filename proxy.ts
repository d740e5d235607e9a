import { type NextRequest, NextResponse } from "next/server";

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/**
 * Next.js decodes the path's segments before it routes, and answers a
 * malformed percent-escape (`/v1/files/%zz`) with a bare 500 that no route
 * sees. Such a segment is passed on as the literal text it is (`%` becomes
 * `%25`), so /v1 answers it like any other unknown id or path. Only /v1 paths
 * with a `%` come here.
 */
export function proxy(request: NextRequest) {
  const segments = request.nextUrl.pathname.split("/");
  if (segments.every(decodes)) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = segments.map((segment) => (decodes(segment) ? segment : segment.replaceAll("%", "%25"))).join("/");
  return NextResponse.rewrite(url);
}

export const config = { matcher: "/v1/:path(.*%.*)" };
