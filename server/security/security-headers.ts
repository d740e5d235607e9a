/**
 * The headers that tell browsers what our answers may do, set on every answer
 * of the web process by its edge (server/runtime/web/server.ts), before
 * Next.js or the edge itself writes one, so no path can miss them. Plain
 * functions of the request's target and two settings.
 */
import { randomBytes } from "node:crypto";

/** Browser features the app never uses, turned off for it and for anything it might ever embed. */
const unusedFeatures = [
  "accelerometer",
  "autoplay",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
];

/**
 * What every answer carries besides its Content-Security-Policy. HSTS only
 * when the app is reached over https (browsers ignore it over http, and a
 * plain-http deployment must stay reachable); without `includeSubDomains`
 * or `preload`, which would bind names the app does not own.
 */
export function securityHeaders(https: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": unusedFeatures.map((feature) => `${feature}=()`).join(", "),
    ...(https ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}

/** Answers that are never one of our pages: the APIs, operator endpoints, downloads, Next.js's static files and public/'s (the icon). */
const notAPage = /^\/(api|v1|downloads|healthz|readyz|metrics|_next|icon\.svg)(\/|\?|$)/;

/** For JSON, text and files: nothing may load or run under them, and nobody may frame them. */
export const nonPagePolicy = "default-src 'none'; frame-ancestors 'none'";

/**
 * A page loads nothing from another origin. Next.js writes its own inline
 * scripts (the page's data), so scripts also need this request's nonce, which
 * Next.js reads from the request's policy and puts on them (every page
 * renders per request for that: app/layout.tsx). The API reference (`/docs`)
 * alone needs more: Scalar adds `<style>` elements while it runs, which
 * cannot carry a nonce, and its stylesheet draws a few icons (markdown
 * disclosures and alerts) as `data:` images; the guides link to it with a
 * full page load so it gets its own policy. Under `npm run dev` alone,
 * React's development build needs eval and Next.js's dev tools add inline
 * styles.
 */
function pagePolicy(pathname: string, nonce: string, development: boolean) {
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

/** The Content-Security-Policy for an answer to `target` (a request's path and query): a page's has a fresh nonce. */
export function contentSecurityPolicy(target: string, development: boolean): string {
  if (notAPage.test(target)) return nonPagePolicy;
  return pagePolicy(target.split("?")[0]!, randomBytes(16).toString("base64"), development);
}
