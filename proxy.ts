import { type NextRequest, NextResponse } from "next/server";
import { requestedPathHeader } from "@/server/auth/callback-path";

/**
 * Pages behind sign-in learn which address was asked for, so that signing
 * in can come back to it (server/auth/session.ts `requireMember`). Set here,
 * over anything the browser sent under that name. (Every page's
 * Content-Security-Policy is set by the web server's edge,
 * server/runtime/web/server.ts, like the other security headers.)
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(requestedPathHeader, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/settings", "/settings/:path*", "/candidates/:path*"] };
