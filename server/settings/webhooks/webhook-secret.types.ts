import { z } from "zod";

export const revealWebhookSecretOutput = z.object({ secret: z.string() });

/** The new secret, and until when the old one keeps signing alongside it. */
export const rotateWebhookSecretOutput = z.object({ secret: z.string(), previousValidUntil: z.string() });
