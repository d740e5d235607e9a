import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";

export const resendMessageInput = z.object({ messageId: recordId });
export const resendMessageOutput = z.object({ messageId: z.string() });
