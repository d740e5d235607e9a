import { z } from "zod";
import { openapi } from "./common";
import { fileDownloadSchema, successEnvelope } from "./schemas";

export const getFileMeta = openapi({
  path: "/files/{id}",
  operationId: "getFile",
  summary: "A download link for a candidate's document",
  description: "Works for files in a candidate's `documents` list.",
  tags: ["Files"],
});
export const getFileInput = z.object({ id: z.string() });
export const getFileOutput = successEnvelope(z.object({ file: fileDownloadSchema.meta({ description: "a download link for the file" }) }));
