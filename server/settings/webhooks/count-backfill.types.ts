import { z } from "zod";
import { pickedTime, recordId } from "@/server/settings/inputs.types";

/** The same question as the backfill's, asked before it. */
export const countBackfillInput = z.object({ id: recordId, since: pickedTime });

/** How many past events would be sent now; they go `batch` at a time. */
export const countBackfillOutput = z.object({ events: z.number(), batch: z.number() });
