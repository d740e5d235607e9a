import { formatDateTime, formatExactDateTime } from "./format";

/** A moment to the minute, in the reader's time zone; to the second and with the time zone on hover (and for tests, `dateTime`). */
export function Time({ iso, testId }: { iso: string; testId?: string }) {
  return (
    <time dateTime={iso} title={formatExactDateTime(iso)} data-testid={testId} className="whitespace-nowrap">
      {formatDateTime(iso)}
    </time>
  );
}
