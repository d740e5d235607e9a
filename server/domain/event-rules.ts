/**
 * Which events a change to a candidate produces (spec sections 3, 4.2 rule 9
 * and 6). Pure: it compares the attempt before and after one operation, so the
 * single-step operations and the bulk importer follow exactly the same rules.
 */

import type { ChangedBy, EventType, StatusChange } from "@/db/schema";
import type { CandidateRow } from "./candidate-row";

export type EventDraft = { type: EventType; change: StatusChange | null };

export const finalResultStates = new Set(["complete", "incomplete", "not_applicable"]);

export const isResultFinal = (candidate: Pick<CandidateRow, "resultState">) => finalResultStates.has(candidate.resultState);

type Facts = Pick<CandidateRow, "isPreview" | "submittedAt" | "scoreStatus" | "resultState" | "status">;

/**
 * `before` is null for an attempt that did not exist yet. Order within one
 * operation: submitted, scored, ready, then status_changed. A score or final
 * result reached before submission is announced at submission; a status set at
 * submission is part of the submission, not a change.
 */
export function eventsForChange(before: Facts | null, after: Facts, by: ChangedBy): EventDraft[] {
  if (after.isPreview || after.submittedAt === null) return [];
  const wasSubmitted = before !== null && before.submittedAt !== null;
  const drafts: EventDraft[] = [];
  if (!wasSubmitted) drafts.push({ type: "candidate.submitted", change: null });
  if (after.scoreStatus === "saved" && (!wasSubmitted || before.scoreStatus !== "saved")) {
    drafts.push({ type: "candidate.scored", change: null });
  }
  if (isResultFinal(after) && (!wasSubmitted || !isResultFinal(before))) {
    drafts.push({ type: "candidate.ready", change: null });
  }
  if (wasSubmitted && before.status !== after.status) {
    drafts.push({ type: "candidate.status_changed", change: { from: before.status, to: after.status, by } });
  }
  return drafts;
}
