/**
 * Every header a delivery carries: the spec's own (5.1) and the Standard
 * Webhooks family, both signed over the same body. The publishable client
 * (clients/typescript) signs `listen`'s local forwards on its own, as
 * integrators' code would; tests/client checks both against the same
 * independent verifiers.
 */
import type { EventType } from "@/db/schema";
import { signatureHeader, standardWebhookHeaders } from "./signature";

export type DeliveryHeaderInput = {
  eventId: string;
  eventType: EventType;
  attempt: number;
  body: string;
  /** The valid signing secrets, current first. */
  secrets: string[];
  /** Unix seconds. */
  timestamp: number;
  userAgent: string;
};

export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": input.userAgent,
    "Service-Event-Id": input.eventId,
    "Service-Event-Type": input.eventType,
    "Service-Delivery-Attempt": String(input.attempt),
    "Service-Signature": signatureHeader(input.body, input.secrets, input.timestamp),
    ...standardWebhookHeaders(input.eventId, input.body, input.secrets, input.timestamp),
  };
}
