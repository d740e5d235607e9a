/**
 * Status changes after submission, by the AI or a named team member. Each one
 * produces candidate.status_changed with the change frozen (from, to, by).
 */
import type { CandidateStatus, ChangedBy } from "@/db/schema";
import { changeCandidate } from "./candidate-changes";
import type { DomainContext } from "./context";
import { invalidInput, invalidState } from "./errors";

/** The statuses a submitted attempt can take; in_progress, cancelled and abandoned are for unsubmitted ones. */
export const decidedStatuses: readonly CandidateStatus[] = ["passed", "needs_review", "did_not_pass", "shortlisted", "on_hold", "rejected"];

export type StatusChangeInput = { to: CandidateStatus; by: ChangedBy; rejectionReason?: string | null };

export async function changeStatus(ctx: DomainContext, candidateId: string, input: StatusChangeInput) {
  if (!decidedStatuses.includes(input.to)) throw invalidInput(`A submitted attempt cannot become ${input.to}.`);
  if (input.by.type !== "team" && input.by.type !== "ai") throw invalidInput("Statuses are changed by the AI or the team.");
  if (!input.by.name.trim()) throw invalidInput("A status change needs the name of who made it.");
  return changeCandidate(ctx, candidateId, (candidate) => {
    if (!candidate.submittedAt) throw invalidState("Only a submitted attempt changes status.");
    return {
      patch: {
        status: input.to,
        rejectionReason: input.to === "rejected" ? input.rejectionReason?.trim() || null : null,
      },
      by: input.by,
    };
  });
}
