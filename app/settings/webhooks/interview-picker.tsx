"use client";
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useId, useState } from "react";
import { inputClass } from "@/app/ui/field";
import { ErrorState } from "@/app/ui/states";
import { useSettingsApi } from "../settings-api";

export type InterviewChoice = { id: string; title: string };

/** Search the company's interviews by title or id and tick the ones wanted. */
export function InterviewPicker({ chosen, onChange }: { chosen: InterviewChoice[]; onChange: (chosen: InterviewChoice[]) => void }) {
  const [search, setSearch] = useState("");
  const query = useDeferredValue(search);
  const searchId = useId();
  const api = useSettingsApi();
  const results = useQuery(api.webhooks.searchInterviews.queryOptions({ query }, { placeholderData: (previous) => previous }));
  const isChosen = (id: string) => chosen.some((interview) => interview.id === id);
  const toggle = (interview: InterviewChoice) => onChange(isChosen(interview.id) ? chosen.filter((item) => item.id !== interview.id) : [...chosen, interview]);

  return (
    <div className="mt-3 rounded-md border border-slate-200 p-3">
      {chosen.length > 0 && (
        <ul aria-label="Chosen interviews" className="mb-3 flex flex-wrap gap-2">
          {chosen.map((interview) => (
            <li key={interview.id} className="flex items-center gap-1 rounded-full bg-indigo-50 py-1 pl-3 pr-1 text-sm text-indigo-900">
              {interview.title}
              <button
                type="button"
                onClick={() => toggle(interview)}
                className="rounded-full px-1.5 hover:bg-indigo-100"
                aria-label={`Remove ${interview.title}`}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
        Search interviews
      </label>
      <input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Title or id" className={inputClass} />
      {results.isError ? (
        <div className="mt-2">
          <ErrorState error={results.error} onRetry={() => results.refetch()} />
        </div>
      ) : (
        <ul className="mt-2 max-h-56 overflow-y-auto" aria-busy={results.isFetching}>
          {results.data?.interviews.length === 0 && <li className="py-2 text-sm text-slate-500">No interview matches “{query}”.</li>}
          {results.data?.interviews.map((interview) => (
            <li key={interview.id}>
              <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-1.5 text-sm hover:bg-slate-50">
                <input type="checkbox" checked={isChosen(interview.id)} onChange={() => toggle(interview)} />
                {interview.title}
                <span className="font-mono text-xs text-slate-400">{interview.id}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
