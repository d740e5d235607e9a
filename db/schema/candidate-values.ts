/** The values of candidates' status and recommendation, apart from the table so the settings pages can import them without the schema. */
export const candidateStatuses = [
  "in_progress",
  "passed",
  "needs_review",
  "did_not_pass",
  "shortlisted",
  "on_hold",
  "rejected",
  "cancelled",
  "abandoned",
] as const;
export type CandidateStatus = (typeof candidateStatuses)[number];

export const recommendations = ["strongly_recommend", "recommended", "consider", "not_recommended"] as const;
export type Recommendation = (typeof recommendations)[number];
