import { z } from "zod";

export const backfillInput = z.object({ id: z.string().min(1), since: z.iso.datetime({ offset: true }) });

/** How many past events would be sent now; they go `batch` at a time. */
export const countBackfillOutput = z.object({ events: z.number(), batch: z.number() });

export const backfillOutput = z.object({ sent: z.number(), more: z.boolean() });
