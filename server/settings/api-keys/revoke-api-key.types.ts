import { z } from "zod";

export const revokeApiKeyInput = z.object({ id: z.string().min(1) });
