import { z } from "zod";
import { openapi } from "./common";
import { meSchema, successEnvelope } from "./schemas";

export const getMeMeta = openapi({
  path: "/me",
  operationId: "getMe",
  summary: "The company and API key making the call",
  tags: ["Account"],
});
export const getMeInput = z.object({});
export const getMeOutput = successEnvelope(meSchema);
