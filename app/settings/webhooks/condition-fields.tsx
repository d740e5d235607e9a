"use client";
import { inputClass } from "@/app/ui/field";
import { type CandidateStatus, candidateStatuses, type Recommendation, recommendations } from "@/db/schema/candidate-values";
import type { EventType } from "@/db/schema/event-types";
import { recommendationLabels, statusLabels } from "@/server/read/candidate-labels";
import { scoreConditionTypes, type WebhookConditions } from "@/server/webhooks/delivery/conditions";

/** The conditions as the form holds them: nothing ticked or typed is no condition. */
export type ConditionEntry = { statusTo: CandidateStatus[]; minScore: string; recommendations: Recommendation[] };

export const conditionEntryOf = (conditions: WebhookConditions | null): ConditionEntry => ({
  statusTo: conditions?.statusTo ?? [],
  minScore: conditions?.minScore === undefined ? "" : String(conditions.minScore),
  recommendations: conditions?.recommendations ?? [],
});

/** What is sent to the server; a condition whose event types are not chosen is dropped, as it could never apply. */
export function enteredConditions(entry: ConditionEntry, eventTypes: readonly EventType[]) {
  const scored = scoreConditionTypes.some((type) => eventTypes.includes(type));
  const conditions = {
    ...(eventTypes.includes("candidate.status_changed") && entry.statusTo.length > 0 ? { statusTo: entry.statusTo } : {}),
    ...(scored && entry.minScore.trim() !== "" ? { minScore: Number(entry.minScore) } : {}),
    ...(scored && entry.recommendations.length > 0 ? { recommendations: entry.recommendations } : {}),
  };
  return Object.keys(conditions).length === 0 ? null : conditions;
}

const toggled = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((other) => other !== item) : [...list, item]);

/** Shown under the event types they narrow, only while those types are chosen. */
export function ConditionFields({
  entry,
  eventTypes,
  onChange,
  problem,
}: {
  entry: ConditionEntry;
  eventTypes: readonly EventType[];
  onChange: (entry: ConditionEntry) => void;
  problem?: string;
}) {
  const statusChanges = eventTypes.includes("candidate.status_changed");
  const scored = scoreConditionTypes.some((type) => eventTypes.includes(type));
  if (!statusChanges && !scored) return null;
  return (
    <fieldset data-testid="webhook-condition-fields" className="rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-800">Only some events (optional)</legend>
      <p className="text-sm text-slate-500">Events that do not match are never sent to this webhook. Samples are always sent.</p>
      {statusChanges && (
        <div className="mt-3">
          <p className="text-sm font-medium text-slate-700">Status changes: only when the new status is</p>
          <div className="mt-1 grid grid-cols-2 gap-1 sm:grid-cols-3">
            {candidateStatuses.map((status) => (
              <label key={status} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={entry.statusTo.includes(status)}
                  onChange={() => onChange({ ...entry, statusTo: toggled(entry.statusTo, status) })}
                />
                {statusLabels[status]}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-slate-500">Tick none to send every status change.</p>
        </div>
      )}
      {scored && (
        <div className="mt-3">
          <label className="block text-sm font-medium text-slate-700">
            Scored and ready: only when the score is at least
            <input
              type="number"
              min={0}
              max={100}
              step={1}
              inputMode="numeric"
              aria-label="Lowest score"
              className={`${inputClass} w-28`}
              placeholder="Any"
              value={entry.minScore}
              onChange={(event) => onChange({ ...entry, minScore: event.target.value })}
            />
          </label>
          <p className="mt-2 text-sm font-medium text-slate-700">or the recommendation is</p>
          <div className="mt-1 grid grid-cols-2 gap-1">
            {recommendations.map((recommendation) => (
              <label key={recommendation} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={entry.recommendations.includes(recommendation)}
                  onChange={() => onChange({ ...entry, recommendations: toggled(entry.recommendations, recommendation) })}
                />
                {recommendationLabels[recommendation]}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-slate-500">Leave both empty to send every scored and ready event. A candidate without a score matches neither.</p>
        </div>
      )}
      {problem && <p className="mt-2 text-sm text-red-700">{problem}</p>}
    </fieldset>
  );
}
