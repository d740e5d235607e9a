/** The words for candidates' statuses and recommendations: the API's `*_label` fields and the settings pages say the same. Nothing here needs Node. */
import type { CandidateStatus, Recommendation } from "@/db/schema/candidate-values";

export const statusLabels: Record<CandidateStatus, string> = {
  in_progress: "In progress",
  passed: "Passed",
  needs_review: "Needs review",
  did_not_pass: "Did not pass",
  shortlisted: "Shortlisted",
  on_hold: "On hold",
  rejected: "Rejected",
  cancelled: "Cancelled",
  abandoned: "Abandoned",
};

export const recommendationLabels: Record<Recommendation, string> = {
  strongly_recommend: "Strongly recommend",
  recommended: "Recommended",
  consider: "Consider",
  not_recommended: "Not recommended",
};
