import { z } from "zod";
import { customHeadersWithValues } from "./custom-headers.types";

/** Shown after saving when the address's host name does not resolve yet (the webhook is saved all the same). */
export const addressWarning = z.string().nullable();

/** The signing secret and the custom headers, shown straight after creation (admins can reveal them again later). */
export const createWebhookOutput = z.object({ id: z.string(), secret: z.string(), customHeaders: customHeadersWithValues, addressWarning });
