/**
 * Custom headers an admin adds to every message of a webhook (a receiver's
 * own authentication: an API key header, `Authorization: Basic …`). The
 * settings form and the server parse with the same schemas; nothing here
 * needs Node, so the form imports it. Values are secrets: stored encrypted
 * (custom-headers.ts), never logged, masked in the delivery log.
 */
import { z } from "zod";

export const maxCustomHeaders = 5;
export const maxHeaderValueLength = 1000;
const maxHeaderNameLength = 100;

export type CustomHeader = { name: string; value: string };

/** RFC 9110's `token`: what a header name may be made of. */
const httpToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Any C0 control character or DEL: a value carrying one could end the header early or be refused on the way. */
const hasControlCharacter = (value: string) => [...value].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);

/** Names the service sets itself, or that mean something to the connection rather than the receiver: why each is refused. */
const refusedNames: Record<string, string> = {
  host: "it is taken from the webhook's address",
  "content-length": "it is worked out from each message's body",
  "content-type": "every message is JSON, sent as application/json",
  "transfer-encoding": "how the body travels is the HTTP client's to decide",
  connection: "connections are managed by the HTTP client, not per message",
  "user-agent": "it names this service, so receivers and their firewalls can recognise it",
};
const refusedPrefixes: Array<[string, string]> = [
  ["service-", "headers starting with Service- are the spec's own (event id, type, attempt and signature)"],
  ["webhook-", "headers starting with webhook- are the Standard Webhooks headers, which carry the signature"],
  ["proxy-", "headers starting with Proxy- are for proxies on the way and never reach the receiver"],
  ["sec-", "headers starting with Sec- are reserved for browsers' own use"],
];

/** The sentence saying why a name cannot be used, or null when it can. */
export function refusedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  const reason = refusedNames[lower] ?? refusedPrefixes.find(([prefix]) => lower.startsWith(prefix))?.[1];
  return reason ? `The header ${name} cannot be set: ${reason}.` : null;
}

export const customHeaderName = z
  .string()
  .trim()
  .min(1, "Enter a name for each header.")
  .max(maxHeaderNameLength, `A header name can be at most ${maxHeaderNameLength} characters.`)
  .superRefine((name, issues) => {
    if (!httpToken.test(name)) {
      issues.addIssue({ code: "custom", message: `The header name “${name}” is not a valid HTTP header name: use letters, digits and - (like X-Api-Key).` });
      return;
    }
    const reason = refusedHeaderReason(name);
    if (reason) issues.addIssue({ code: "custom", message: reason });
  });

export const customHeaderValue = z
  .string()
  .min(1, "Enter a value for each header.")
  .max(maxHeaderValueLength, `A header value can be at most ${maxHeaderValueLength.toLocaleString("en-US")} characters.`)
  .refine((value) => !hasControlCharacter(value), "A header value cannot contain control characters (line breaks, tabs and the like).");

/** One name once, whatever its case: HTTP does not tell X-Api-Key from x-api-key. */
const distinctNames = <T extends { name: string }>(headers: T[], issues: z.RefinementCtx) => {
  const seen = new Set<string>();
  for (const { name } of headers) {
    if (seen.has(name.toLowerCase())) issues.addIssue({ code: "custom", message: `The header ${name} is given twice; give each header once.` });
    seen.add(name.toLowerCase());
  }
};

const tooMany = `A webhook can have at most ${maxCustomHeaders} custom headers.`;

/** Creating: names with their values. */
export const customHeadersSchema = z
  .array(z.object({ name: customHeaderName, value: customHeaderValue }))
  .max(maxCustomHeaders, tooMany)
  .superRefine(distinctNames);

/**
 * Updating: the whole new list. A value of null keeps the saved value of the
 * header with the same name, so an admin can rename or drop one header
 * without typing the others' secrets again.
 */
export const customHeaderChangesSchema = z
  .array(z.object({ name: customHeaderName, value: customHeaderValue.nullable() }))
  .max(maxCustomHeaders, tooMany)
  .superRefine(distinctNames);

/** What stands for a value wherever one is not shown in full: the settings pages and the delivery log's request headers. */
export const maskedHeaderValue = "••••••••";
