import { z } from "zod";

/** The signing secret, shown straight after creation (admins can reveal it again later). */
export const createWebhookOutput = z.object({ id: z.string(), secret: z.string() });
