import { z } from "zod";

export const apiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  displayPrefix: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const listApiKeysOutput = z.object({ keys: z.array(apiKeySummary) });
