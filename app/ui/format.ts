/** Dates as people read them, in their own time zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : "Never");

export const formatRate = (rate: number | null) => (rate === null ? "No deliveries" : `${rate}%`);

const languages = new Intl.DisplayNames(["en"], { type: "language" });

/** A language code as its English name ("en" → "English"); the code itself when unknown. */
export const languageName = (code: string) => {
  try {
    return languages.of(code) ?? code;
  } catch {
    return code;
  }
};
