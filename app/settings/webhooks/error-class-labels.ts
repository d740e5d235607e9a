import type { DeliveryErrorClass } from "@/db/schema/webhook-attempts";

/** Why an attempt failed, in words: the one place the log's error classes are named for people. */
export const errorClassLabels: Record<DeliveryErrorClass, string> = {
  http_status: "Answered with an error status",
  // The answer deadline is server/webhooks/delivery/delivery-client.ts's answerDeadlineMs (spec 6.2: 10 seconds).
  timeout: "Timed out after 10 s",
  dns: "Host name did not resolve",
  connection_refused: "Connection refused",
  tls: "Secure connection failed (TLS)",
  blocked_address: "Blocked: the host resolves to a private address",
  redirect: "Answered with a redirect (not followed)",
  connection: "Connection failed",
};
