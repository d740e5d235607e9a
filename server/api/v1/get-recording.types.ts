import { z } from "zod";
import { openapi } from "./common";
import { recordingDownloadSchema, successEnvelope } from "./schemas";

export const getRecordingMeta = openapi({
  path: "/candidates/{id}/recording",
  operationId: "getRecording",
  summary: "A download link for the AI interview recording",
  description:
    "Only a `ready` recording can be downloaded. For `processing`, `failed`, `none` and `deleted` recordings, and when " +
    "the candidate has no AI interview, the answer is 404 with `details.recording_status` (null without an AI interview).",
  tags: ["Candidates"],
});
export const getRecordingInput = z.object({ id: z.string() });
export const getRecordingOutput = successEnvelope(z.object({ recording: recordingDownloadSchema.meta({ description: "a download link for the recording" }) }));
