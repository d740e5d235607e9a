/** Dates as people read them, in their own time zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : "Never");

/** A success rate with what it is of: "95.5% of 22 tries" (server/webhooks/views/health.ts). */
export const formatSuccess = (rate: number | null, tries: number) =>
  rate === null ? "No tries" : `${rate}% of ${tries.toLocaleString()} ${tries === 1 ? "try" : "tries"}`;

const languages = new Intl.DisplayNames(["en"], { type: "language" });

/** A language code as its English name ("en" → "English"); the code itself when unknown. */
export const languageName = (code: string) => {
  try {
    return languages.of(code) ?? code;
  } catch {
    return code;
  }
};

/** To the second, with the time zone: what a time shows on hover. */
const exactDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "long" });

export const formatExactDateTime = (iso: string) => exactDateTime.format(new Date(iso));
