import { candidateNotFound } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { ApiError } from "@/server/http/api-error";
import { findRecording } from "@/server/read/downloads";
import { getRecordingInput, getRecordingMeta, getRecordingOutput } from "./get-recording.types";

const unavailable: Record<string, string> = {
  processing: "The recording is still processing; it may arrive up to about two days after the interview.",
  failed: "The recording did not arrive or could not be processed.",
  none: "The candidate's device recorded nothing.",
  deleted: "The recording was deleted after the retention period.",
};

export const getRecording = apiProcedure
  .meta(getRecordingMeta)
  .input(getRecordingInput)
  .output(getRecordingOutput)
  .query(async ({ ctx, input }) => {
    const { caller } = ctx;
    const found = await findRecording(ctx.sql, caller.company.id, input.id, ctx.clock.now());
    if (found.kind === "no_candidate") throw candidateNotFound(input.id);
    if (found.kind === "unavailable") {
      throw new ApiError("not_found", found.status ? unavailable[found.status]! : "The candidate has no AI interview recording.", {
        details: { recording_status: found.status },
      });
    }
    return ok(ctx, { recording: found.recording });
  });
