/**
 * Whether a request that changes something (a settings mutation, signing in
 * or out) was sent by a page of this site. Session cookies are SameSite, but
 * older and some embedded browsers do not enforce that, and next-auth's CSRF
 * token does not cover tRPC: the web server's edge refuses what fails this
 * check before it reaches a route.
 */
import type { IncomingHttpHeaders } from "node:http";

/**
 * `Origin` must be this site's: APP_URL's origin, or the request's own host
 * (the address the browser used, when a proxy in front has another name).
 * Browsers send `Origin` on every POST; when it is missing, `Sec-Fetch-Site`
 * must say same-origin. A request with neither (not a browser, or one too old
 * to tell) is not taken as ours: the settings pages never need one.
 */
export function isFromThisSite(headers: IncomingHttpHeaders, appOrigin: string): boolean {
  const origin = headers.origin;
  if (origin === undefined) return headers["sec-fetch-site"] === "same-origin";
  try {
    const from = new URL(origin);
    return from.origin === appOrigin || (headers.host !== undefined && from.host === headers.host);
  } catch {
    // `Origin: null` (a sandboxed frame, a redirect across origins) and anything malformed.
    return false;
  }
}
