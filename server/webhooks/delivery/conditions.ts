/**
 * Conditions narrow what a webhook is sent beyond its event types and
 * interviews, to the few cases receivers ask for. Deliberately no expression
 * language: two conditions, each on its own event types.
 *
 * - `statusTo`: a `candidate.status_changed` is sent only when `change.to` is
 *   one of these statuses.
 * - `minScore` / `recommendations`: a `candidate.scored` or `candidate.ready`
 *   is sent only when the candidate's score is at least `minScore`, or its
 *   recommendation is one of `recommendations` (either one suffices when both
 *   are set). A candidate without a score matches neither.
 *
 * Other event types are never held back by a condition. Checked when an event
 * becomes messages (fan-out.ts, backfill.ts): an event that does not match
 * never becomes a message for the webhook. Nothing here needs Node, so the
 * settings form imports it.
 */
import { z } from "zod";
import { type CandidateStatus, candidateStatuses, type Recommendation, recommendations } from "@/db/schema/candidate-values";
import type { EventType } from "@/db/schema/event-types";
import type { WebhookConditions } from "@/db/schema/webhooks";
import { recommendationLabels, statusLabels } from "@/server/read/candidate-labels";

export type { WebhookConditions };

export const scoreConditionTypes: readonly EventType[] = ["candidate.scored", "candidate.ready"];

export const webhookConditionsSchema = z
  .object({
    statusTo: z.array(z.enum(candidateStatuses)).min(1, "Choose at least one status, or no condition on status changes.").optional(),
    minScore: z
      .number()
      .int("The lowest score is a whole number.")
      .min(0, "The lowest score is 0 to 100.")
      .max(100, "The lowest score is 0 to 100.")
      .optional(),
    recommendations: z.array(z.enum(recommendations)).min(1, "Choose at least one recommendation, or no condition on recommendations.").optional(),
  })
  .strict()
  .transform((conditions): WebhookConditions | null => {
    const kept = Object.fromEntries(Object.entries(conditions).filter(([, value]) => value !== undefined));
    return Object.keys(kept).length === 0 ? null : (kept as WebhookConditions);
  })
  .nullable()
  .transform((conditions) => conditions ?? null);

/** What a condition looks at: the status a change went to, and the candidate's score and recommendation. */
export type ConditionFacts = { statusTo: string | null; score: number | null; recommendation: string | null };

/** Whether an event of `type` with these facts passes the webhook's conditions. */
export function conditionsHold(conditions: WebhookConditions | null, type: EventType, facts: ConditionFacts): boolean {
  if (!conditions) return true;
  if (type === "candidate.status_changed") return !conditions.statusTo || conditions.statusTo.includes(facts.statusTo as CandidateStatus);
  if (!scoreConditionTypes.includes(type) || (conditions.minScore === undefined && !conditions.recommendations)) return true;
  const scoreHolds = conditions.minScore !== undefined && facts.score !== null && facts.score >= conditions.minScore;
  const recommendationHolds = conditions.recommendations?.includes(facts.recommendation as Recommendation) ?? false;
  return scoreHolds || recommendationHolds;
}

/** Whether the webhook needs candidates' scores to decide (so fan-out reads them only then). */
export const needsScores = (conditions: WebhookConditions | null) => conditions?.minScore !== undefined || conditions?.recommendations !== undefined;

const orList = (words: string[]) => (words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`);

/** The conditions in words, one sentence per event kind they narrow, for the webhook's page (admins and members). */
export function describeConditions(conditions: WebhookConditions | null, eventTypes: readonly EventType[]): string[] {
  if (!conditions) return [];
  const sentences: string[] = [];
  if (conditions.statusTo && eventTypes.includes("candidate.status_changed")) {
    sentences.push(`Status changes: only when the new status is ${orList(conditions.statusTo.map((status) => statusLabels[status]))}.`);
  }
  const scoreParts = [
    ...(conditions.minScore !== undefined ? [`the score is at least ${conditions.minScore}`] : []),
    ...(conditions.recommendations ? [`the recommendation is ${orList(conditions.recommendations.map((item) => recommendationLabels[item]))}`] : []),
  ];
  const scoredTypes = scoreConditionTypes.filter((type) => eventTypes.includes(type));
  if (scoreParts.length > 0 && scoredTypes.length > 0) {
    const which = scoredTypes.length === 2 ? "Scored and ready" : scoredTypes[0] === "candidate.scored" ? "Scored" : "Ready";
    sentences.push(`${which}: only when ${scoreParts.join(", or ")}.`);
  }
  return sentences;
}
