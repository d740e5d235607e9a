import { z } from "zod";
import { pickedTime, recordId } from "@/server/settings/inputs.types";

export const resendFailedSinceInput = z.object({ id: recordId, since: pickedTime });
export const resendFailedSinceOutput = z.object({ resent: z.number(), more: z.boolean() });
