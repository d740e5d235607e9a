import type { ReactNode } from "react";

const tones = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/30",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
} as const;

export function Badge({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}

const webhookStates = { healthy: ["green", "Healthy"], failing: ["amber", "Failing"], disabled: ["slate", "Disabled"] } as const;

export function WebhookStateBadge({ state }: { state: keyof typeof webhookStates }) {
  const [tone, label] = webhookStates[state];
  return <Badge tone={tone}>{label}</Badge>;
}

const messageStates = { succeeded: ["green", "Delivered"], failed: ["red", "Failed"], pending: ["amber", "Waiting"] } as const;

export function MessageStatusBadge({ status }: { status: keyof typeof messageStates }) {
  const [tone, label] = messageStates[status];
  return <Badge tone={tone}>{label}</Badge>;
}
