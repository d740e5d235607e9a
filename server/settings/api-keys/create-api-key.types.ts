import { z } from "zod";

export const maxApiKeyNameLength = 200;

export const createApiKeyInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the key a name, such as the system that will use it.")
    .max(maxApiKeyNameLength, `Keep the name under ${maxApiKeyNameLength} characters.`),
});

/** `key` is the whole key: shown once, never stored. */
export const createApiKeyOutput = z.object({ id: z.string(), key: z.string(), displayPrefix: z.string() });
