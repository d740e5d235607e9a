"use client";
import { formatDateTime } from "@/app/ui/format";

/** A time in the reader's own time zone (the server does not know it). */
export function LocalTime({ iso }: { iso: string | null }) {
  if (!iso) return <>Not yet</>;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {formatDateTime(iso)}
    </time>
  );
}
