/**
 * Where signing in sends someone back. A deep link (a failure email's link to
 * a webhook, a candidate's dashboard_url) asks for `/sign-in?callbackUrl=…`;
 * only a path on this site is honoured, so a crafted link cannot send a
 * person elsewhere after they typed their password. Plain data and pure
 * functions: the sign-in form (in the browser) uses them too.
 */

export const defaultSignedInPath = "/settings/webhooks";

/** The request header proxy.ts sets on protected pages: the path (and query) asked for, which a layout cannot read otherwise. */
export const requestedPathHeader = "x-requested-path";

const unsafeCharacter = (character: string) => character === "\\" || character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f;

const placeholderOrigin = "https://same-origin.invalid";

/**
 * The path to return to after signing in: `value` when it is a relative path
 * of this site (starting with one `/`), else the default. Refused: absolute
 * URLs, protocol-relative `//host` (also after dot segments are resolved: `/.//host`), backslashes (browsers read `/\host` as
 * `//host`), control characters (browsers drop tabs and newlines, so `/\t/host`
 * becomes `//host`), and the sign-in page itself.
 */
export function safeCallbackPath(value: string | null | undefined): string {
  if (!value || value.length > 2048) return defaultSignedInPath;
  if (!value.startsWith("/") || value.startsWith("//") || [...value].some(unsafeCharacter)) return defaultSignedInPath;
  let url: URL;
  try {
    url = new URL(value, placeholderOrigin);
  } catch {
    return defaultSignedInPath;
  }
  // Dot segments are resolved first: `/.//host` becomes `//host`, which is checked again.
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== placeholderOrigin || path.startsWith("//") || url.pathname === "/sign-in" || url.pathname.startsWith("/api/")) return defaultSignedInPath;
  return path;
}

/** The sign-in page, asked to return to `path` (when it is one of ours) afterwards. */
export function signInPath(path: string | null | undefined): string {
  const back = safeCallbackPath(path);
  return back === defaultSignedInPath ? "/sign-in" : `/sign-in?callbackUrl=${encodeURIComponent(back)}`;
}
