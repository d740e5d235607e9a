/**
 * The rules a webhook address must meet when it is saved: https, a public host
 * name (no IP literal, no user:password, no local names). Exact host:port
 * targets in WEBHOOK_ALLOW_TARGETS are allowed anyway; https never is relaxed.
 * Free of Node APIs: the settings form checks addresses as they are typed.
 */

export type AddressCheck = { ok: true; url: string } | { ok: false; problem: string };

export const maxAddressLength = 2000;

const localSuffixes = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa"];

/** `host:port` as WEBHOOK_ALLOW_TARGETS lists it, with the scheme's default port. */
export const targetOf = (url: URL) => `${hostnameOf(url)}:${url.port || "443"}`;

/** A host name as it is matched and vetted: without IPv6 brackets or one trailing dot, lower case. */
export const normalizeHost = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

export const hostnameOf = (url: URL) => normalizeHost(url.hostname);

export function checkWebhookAddress(raw: string, allowTargets: readonly string[]): AddressCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: "is not a valid URL" };
  }
  if (url.protocol !== "https:") return { ok: false, problem: "must start with https://" };
  if (url.username || url.password) return { ok: false, problem: "must not contain a user name or password" };
  if (url.hash) return { ok: false, problem: "must not contain a #fragment" };
  if (raw.length > maxAddressLength) return { ok: false, problem: `is longer than ${maxAddressLength.toLocaleString("en")} characters` };
  const host = hostnameOf(url);
  if (!allowTargets.includes(targetOf(url))) {
    if (isIpLiteral(host)) return { ok: false, problem: "must use a host name, not an IP address" };
    if (host === "localhost" || localSuffixes.some((suffix) => host.endsWith(suffix))) {
      return { ok: false, problem: `must use a public host name (${host} is local)` };
    }
    if (!host.includes(".")) return { ok: false, problem: `must use a public host name (${host} has no domain)` };
  }
  return { ok: true, url: url.toString() };
}

/** WHATWG URL has already rewritten every IPv4 spelling to dotted decimal; IPv6 is the only host with colons. */
const isIpLiteral = (host: string) => host.includes(":") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
