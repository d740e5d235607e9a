import { type NextRequest, NextResponse } from "next/server";
import { requestedPathHeader } from "@/server/auth/callback-path";

/**
 * The documentation loads nothing from another origin. Next.js writes its
 * own inline scripts (the page's data), so scripts also need this request's
 * nonce, which Next.js reads from the request's policy and puts on them
 * (app/docs/layout.tsx renders per request for that). The reference page
 * alone needs more: Scalar adds `<style>` elements while it runs, which
 * cannot carry a nonce, and its stylesheet draws a few icons (markdown
 * disclosures and alerts) as `data:` images. The guides need neither, and
 * link to the reference with a full page load so it gets its own policy.
 * Under `npm run dev` alone, React's development build needs eval and
 * Next.js's dev tools add inline styles.
 */
function docsContentSecurityPolicy(pathname: string, nonce: string) {
  const development = process.env.NODE_ENV === "development";
  const reference = pathname === "/docs";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ""}`,
    ...(reference || development ? ["style-src 'self' 'unsafe-inline'"] : []),
    ...(reference ? ["img-src 'self' data:"] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function withDocsPolicy(request: NextRequest) {
  const policy = docsContentSecurityPolicy(request.nextUrl.pathname, Buffer.from(crypto.randomUUID()).toString("base64"));
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

/**
 * Pages behind sign-in learn which address was asked for, so that signing
 * in can come back to it (server/auth/session.ts `requireMember`). Set here,
 * over anything the browser sent under that name.
 */
function withRequestedPath(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(requestedPathHeader, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

/** Only /docs pages and pages behind sign-in come here. */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/docs")) return withDocsPolicy(request);
  return withRequestedPath(request);
}

export const config = { matcher: ["/docs", "/docs/:path*", "/settings", "/settings/:path*", "/candidates/:path*"] };
