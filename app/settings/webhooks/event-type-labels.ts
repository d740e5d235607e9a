import type { EventType } from "@/db/schema/event-types";

export const eventTypeLabels: Record<EventType, string> = {
  "candidate.submitted": "Submitted",
  "candidate.scored": "Scored",
  "candidate.ready": "Ready",
  "candidate.status_changed": "Status changed",
};
