/**
 * Which IP addresses a webhook may connect to: public unicast only. IPv4
 * inside IPv6 (mapped, NAT64, 6to4, Teredo, the old compatible form) is judged
 * by what it embeds or refused outright.
 */
import ipaddr from "ipaddr.js";

const refusedIPv6 = [
  ["::", 96], // IPv4-compatible and unspecified
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48], // local-use NAT64
  ["2002::", 16], // 6to4
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2001:10::", 28], // ORCHID
  ["2001:20::", 28], // ORCHIDv2
] as const;

export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, "").split("%")[0]!);
  } catch {
    return false;
  }
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    if (!v6.match(ipaddr.parseCIDR("2000::/3"))) return false;
    if (refusedIPv6.some(([prefix, bits]) => v6.match(ipaddr.IPv6.parse(prefix), bits))) return false;
    return v6.range() === "unicast";
  }
  return (parsed as ipaddr.IPv4).range() === "unicast";
}

/** Answers a host name's DNS question: its addresses. */
export type Resolver = (hostname: string) => Promise<string[]>;

/**
 * The addresses a (normalised) host name stands for (an IP literal for
 * itself), and the first of them that is not public, if any. Used when an
 * address is saved and at every new connection.
 */
export async function resolveAndVet(host: string, resolver: Resolver): Promise<{ addresses: string[]; refused: string | null }> {
  const addresses = ipaddr.isValid(host) ? [host] : await resolver(host);
  return { addresses, refused: addresses.find((address) => !isPublicAddress(address)) ?? null };
}
