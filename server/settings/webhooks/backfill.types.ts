import { z } from "zod";
import { pickedTime, recordId } from "@/server/settings/inputs.types";

export const backfillInput = z.object({ id: recordId, since: pickedTime });

export const backfillOutput = z.object({ sent: z.number(), more: z.boolean() });
