import { z } from "zod";
import { pickedTime, recordId } from "@/server/settings/inputs.types";

export const backfillInput = z.object({ id: recordId, since: pickedTime });

/** How many past events would be sent now; they go `batch` at a time. */
export const countBackfillOutput = z.object({ events: z.number(), batch: z.number() });

export const backfillOutput = z.object({ sent: z.number(), more: z.boolean() });
