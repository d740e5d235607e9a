import { z } from "zod";
import { pickedTime, recordId } from "@/server/settings/inputs.types";

/** The same question as "resend every failed message since", asked before it. */
export const countFailedSinceInput = z.object({ id: recordId, since: pickedTime });

/** `resendNow` of the `failed` messages go with the next resend (it takes at most 1,000). */
export const countFailedSinceOutput = z.object({ failed: z.number(), resendNow: z.number() });
