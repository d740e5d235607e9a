import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";

export const revokeApiKeyInput = z.object({ id: recordId });
