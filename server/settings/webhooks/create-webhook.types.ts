import { z } from "zod";

/** Shown after saving when the address's host name does not resolve yet (the webhook is saved all the same). */
export const addressWarning = z.string().nullable();

/** The signing secret, shown straight after creation (admins can reveal it again later). */
export const createWebhookOutput = z.object({ id: z.string(), secret: z.string(), addressWarning });
