/**
 * Addresses the API hands out. All are absolute, under APP_URL.
 *
 * Stored JSON texts (a candidate's `api_json`) hold their addresses under
 * `appUrlMark` instead, and `withAppUrl` puts APP_URL in when a text is read or
 * sent: a change of APP_URL needs no stored text rendered again. The mark is a
 * raw control character, which `JSON.stringify` always escapes inside a
 * value, so no data can bring one in (the renderer puts it in after
 * stringifying, ./candidates.ts).
 */
import { env } from "@/server/env";

export const appUrlMark = "\u0001";

/** The addresses of the API's objects under `base`. */
export const apiAddresses = (base: string) => ({
  dashboard: (candidateId: string) => `${base}/candidates/${candidateId}`,
  transcript: (candidateId: string) => `${base}/v1/candidates/${candidateId}/transcript`,
  recording: (candidateId: string) => `${base}/v1/candidates/${candidateId}/recording`,
  file: (fileId: string) => `${base}/v1/files/${fileId}`,
});

export const links = {
  candidateLink: (interviewId: string) => `${env.APP_URL}/interview/${interviewId}`,
  download: (token: string) => `${env.APP_URL}/downloads/${token}`,
};

/** APP_URL as it is written inside a JSON string, kept for the value it was made from. */
let escaped = { appUrl: "", text: "" };

/** A stored JSON text with APP_URL in place of every mark. */
export function withAppUrl(storedJson: string): string {
  if (escaped.appUrl !== env.APP_URL) escaped = { appUrl: env.APP_URL, text: JSON.stringify(env.APP_URL).slice(1, -1) };
  return storedJson.replaceAll(appUrlMark, escaped.text);
}

export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
