/**
 * A webhook as the settings pages show it. Members see how it is doing but
 * only the scheme and host of its address; the full address and anything
 * secret are for admins.
 */
import type postgres from "postgres";
import type { webhooks } from "@/db/schema";
import type { Member } from "@/server/auth/members";
import { interviewTitles } from "@/server/read/interviews";
import { decryptHeaders } from "@/server/webhooks/delivery/custom-headers";
import { webhooksHeldBack } from "@/server/webhooks/delivery/pacing";
import { webhookHealth } from "@/server/webhooks/views/health";
import type { WebhookView } from "./webhook-view.types";

type WebhookRow = typeof webhooks.$inferSelect;

/** `https://hooks.example.com/…`: enough to recognise the receiver, not its path or query. */
export function maskAddress(url: string) {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}/…`;
}

export async function viewWebhooks(sql: postgres.Sql, member: Member, rows: WebhookRow[], now: Date): Promise<WebhookView[]> {
  const health = await webhookHealth(
    sql,
    member.companyId,
    rows.map((row) => row.id),
    now,
  );
  const titles = await interviewTitles(
    sql,
    member.companyId,
    rows.flatMap((row) => (row.allInterviews ? [] : row.interviewIds)),
  );
  const heldBack = await webhooksHeldBack(
    sql,
    rows.map((row) => row.id),
  );
  const isAdmin = member.role === "admin";
  return rows.map((row) => {
    const state = health.get(row.id)!;
    const lastDeliveryAt = [state.lastSuccessAt, state.lastFailureAt].filter(Boolean).sort().at(-1) ?? null;
    return {
      id: row.id,
      address: isAdmin ? row.url : maskAddress(row.url),
      name: row.name,
      description: row.description,
      eventTypes: row.eventTypes,
      // A deleted interview sends nothing any more; leaving it out lets the edit form save without it.
      interviews: row.allInterviews ? null : row.interviewIds.flatMap((id) => (titles.has(id) ? [{ id, title: titles.get(id)! }] : [])),
      state: state.state,
      disabledReason: row.enabled ? null : row.disabledReason,
      successRate24h: state.successRate24h,
      successRate7d: state.successRate7d,
      tries24h: state.tries24h,
      tries7d: state.tries7d,
      lastDeliveryAt,
      lastSuccessAt: state.lastSuccessAt,
      lastFailureAt: state.lastFailureAt,
      failingSince: state.failingSince,
      waitingMessages: state.waitingMessages,
      conditions: row.conditions,
      ...(isAdmin ? { customHeaderNames: decryptHeaders(row.customHeadersCiphertext).map((header) => header.name) } : {}),
      rateLimitPerSecond: row.rateLimitPerSecond,
      heldBackByRateLimit: heldBack.has(row.id),
      previousSecretValidUntil: isAdmin && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    };
  });
}
