/**
 * How `result.state` moves (the spec leaves the table open;
 * docs/decisions/0088-spec-result-state.md). A final result never changes
 * again. It becomes:
 * - not_applicable at the start, for interviews without an AI step;
 * - incomplete/not_submitted when the attempt ends without submission;
 * - incomplete with the given reason when scoring fails or the recording is overdue;
 * - once the score is saved: complete if the recording is ready, or
 *   incomplete/recording_failed if it failed or recorded nothing.
 * A result never becomes final while the score may still come, so
 * candidate.ready can never precede candidate.scored.
 */
import type { IncompleteReason } from "@/db/schema";
import type { CandidateRow } from "./candidate-row";
import { isResultFinal } from "./event-rules";

type ResultFields = Pick<CandidateRow, "resultState" | "incompleteReason" | "resultFinalAt">;

export function settleResult(candidate: CandidateRow, now: Date, failure?: IncompleteReason): Partial<ResultFields> {
  if (isResultFinal(candidate)) return {};
  const incomplete = (reason: IncompleteReason): ResultFields => ({
    resultState: "incomplete",
    incompleteReason: reason,
    resultFinalAt: now,
  });
  if (failure) return incomplete(failure);
  if (candidate.endedAt && !candidate.submittedAt) return incomplete("not_submitted");
  if (candidate.scoreStatus !== "saved") return {};
  if (candidate.recordingStatus === "ready") {
    return { resultState: "complete", incompleteReason: null, resultFinalAt: now };
  }
  if (candidate.recordingStatus === "failed" || candidate.recordingStatus === "none") {
    return incomplete("recording_failed");
  }
  return {};
}
