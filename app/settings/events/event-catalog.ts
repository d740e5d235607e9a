import type { EventType } from "@/db/schema/event-types";

/** When each event type is produced, in plain words (spec 6). */
export const whenProduced: Record<EventType, string[]> = {
  "candidate.submitted": ["Once per attempt, when the candidate has finished every step."],
  "candidate.scored": [
    "Once per attempt, when the AI score is saved.",
    "Never before candidate.submitted, and not produced when the interview could not be scored.",
  ],
  "candidate.ready": [
    "Once per attempt, when the result is final: complete, incomplete (result.incomplete_reason says what is missing) or not_applicable.",
    "Afterwards nothing more arrives for the attempt except status changes.",
  ],
  "candidate.status_changed": [
    "On every status change after submission, by the AI or by someone in your team.",
    "change holds the status before (from), after (to) and who made the change (by).",
  ],
};
