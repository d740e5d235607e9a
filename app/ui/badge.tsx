import type { ReactNode } from "react";
import type { WebhookState } from "@/server/webhooks/views/health";

const tones = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/30",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
} as const;

export function Badge({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return (
    <span data-tone={tone} className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      {children}
    </span>
  );
}

/** The states of server/webhooks/views/health.ts, as a badge says them. */
const webhookStates = {
  off: ["slate", "Off"],
  no_deliveries: ["slate", "No deliveries yet"],
  healthy: ["green", "Healthy"],
  retrying: ["amber", "Retrying"],
  failing: ["red", "Failing"],
} as const satisfies Record<WebhookState, readonly [keyof typeof tones, string]>;

export function WebhookStateBadge({ state }: { state: WebhookState }) {
  const [tone, label] = webhookStates[state];
  return <Badge tone={tone}>{label}</Badge>;
}

/** `retrying`: pending after a failed try, with the next one scheduled; not failed yet. */
const messageStates = {
  succeeded: ["green", "Delivered"],
  failed: ["red", "Failed"],
  pending: ["amber", "Waiting"],
  retrying: ["amber", "Retrying"],
} as const;

/**
 * A message's state. One that ended on our side without a try (the webhook
 * was turned off, the event is gone: `endedUnsent`) is "Not sent", in grey:
 * turning a webhook off is a choice, not the receiver failing.
 */
export function MessageStatusBadge({ status, endedUnsent = false }: { status: keyof typeof messageStates; endedUnsent?: boolean }) {
  const [tone, label] = status === "failed" && endedUnsent ? (["slate", "Not sent"] as const) : messageStates[status];
  return <Badge tone={tone}>{label}</Badge>;
}
