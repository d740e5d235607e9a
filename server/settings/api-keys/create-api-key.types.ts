import { z } from "zod";

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1, "Give the key a name, such as the system that will use it.").max(200, "Keep the name under 200 characters."),
});

/** `key` is the whole key: shown once, never stored. */
export const createApiKeyOutput = z.object({ id: z.string(), key: z.string(), displayPrefix: z.string() });
