/** The public API: every endpoint of spec section 4, one procedure per file. */
import { router } from "@/server/api/trpc";
import { getCandidate } from "./get-candidate";
import { getFile } from "./get-file";
import { getInterview } from "./get-interview";
import { getMe } from "./get-me";
import { getRecording } from "./get-recording";
import { getTranscript } from "./get-transcript";
import { listCandidates } from "./list-candidates";
import { listEvents } from "./list-events";
import { listInterviews } from "./list-interviews";

export const v1Router = router({
  getMe,
  listInterviews,
  getInterview,
  listCandidates,
  getCandidate,
  getTranscript,
  getRecording,
  listEvents,
  getFile,
});
