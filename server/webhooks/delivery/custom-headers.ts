/**
 * Custom headers at rest: the list is one JSON text encrypted like the
 * signing secret (secrets.ts, AES-256-GCM under a key derived from
 * APP_SECRET), so neither names nor values are readable in the database.
 */
import { invalidInput } from "@/server/domain/errors";
import { type CustomHeader, maskedHeaderValue } from "./header-rules";
import { decryptSecret, encryptSecret } from "./secrets";

/** null for no headers: most webhooks have none, and a null column says so without a decryption. */
export const encryptHeaders = (headers: CustomHeader[]): string | null => (headers.length === 0 ? null : encryptSecret(JSON.stringify(headers)));

export const decryptHeaders = (ciphertext: string | null): CustomHeader[] =>
  ciphertext === null ? [] : (JSON.parse(decryptSecret(ciphertext)) as CustomHeader[]);

/** The new list, where a null value keeps the saved value of the header with that name (header-rules.ts). */
export function mergeHeaderChanges(saved: CustomHeader[], changes: Array<{ name: string; value: string | null }>): CustomHeader[] {
  return changes.map(({ name, value }) => {
    if (value !== null) return { name, value };
    const kept = saved.find((header) => header.name.toLowerCase() === name.toLowerCase());
    if (!kept) throw invalidInput(`Enter a value for the header ${name}: it has none saved.`);
    return { name, value: kept.value };
  });
}

export const sameHeaders = (a: CustomHeader[], b: CustomHeader[]) => JSON.stringify(a) === JSON.stringify(b);

/** The headers a request carried, with the custom ones' values masked: what the delivery log keeps. */
export function maskCustomHeaders(sent: Record<string, string>, custom: CustomHeader[]): Record<string, string> {
  const masked = { ...sent };
  for (const { name } of custom) masked[name] = maskedHeaderValue;
  return masked;
}
