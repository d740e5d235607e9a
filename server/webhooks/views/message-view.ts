/** Delivery log rows as the pages show them; what members may not see is left out, not blanked. */

import type { z } from "zod";
import type { Member } from "@/server/auth/members";
import { sampleCandidateName } from "@/server/sample-candidate";
import type { AttemptRow, MessageRow } from "@/server/webhooks/views/delivery-log";
import type { attemptView, messageView } from "./message-view.types";
import { maskAddress } from "./webhook-view";

export const viewMessage = (row: MessageRow): z.infer<typeof messageView> => ({
  id: row.id,
  origin: row.origin,
  eventId: row.event_id,
  eventType: row.event_type,
  candidateId: row.candidate_id,
  // A sample's candidate is made up: it has no row, only the name its body carries.
  candidateName: row.is_test && row.candidate_id === null ? sampleCandidateName : row.candidate_name,
  isTest: row.is_test,
  status: row.status,
  attemptCount: row.attempt_count,
  nextAttemptAt: row.next_attempt_at.toISOString(),
  createdAt: row.created_at.toISOString(),
  eventAt: row.event_at?.toISOString() ?? null,
  completedAt: row.completed_at?.toISOString() ?? null,
  failureReason: row.failure_reason,
  resentFrom: row.resent_from,
  resentTo: row.resent_to_id && row.resent_to_status ? { id: row.resent_to_id, status: row.resent_to_status } : null,
});

export function viewAttempt(row: AttemptRow, member: Member): z.infer<typeof attemptView> {
  const seen = {
    attempt: row.attempt,
    address: member.role === "admin" ? row.url : maskAddress(row.url),
    startedAt: row.started_at.toISOString(),
    durationMs: row.duration_ms,
    responseStatus: row.response_status,
    succeeded: row.succeeded,
    errorClass: row.error_class,
  };
  if (member.role !== "admin") return seen;
  return {
    ...seen,
    requestHeaders: row.request_headers,
    requestBody: row.request_body,
    requestBodyBytes: row.request_body_bytes,
    responseHeaders: row.response_headers,
    responseBody: row.response_body,
    errorMessage: row.error_message,
  };
}
