"use client";
import { Button } from "@/app/ui/button";
import { inputClass } from "@/app/ui/field";
import { maxCustomHeaders, maxHeaderValueLength } from "@/server/webhooks/delivery/header-rules";

/** One row of the form; `saved`: the webhook has a value for this name, kept when the value is left empty. */
export type HeaderEntry = { name: string; value: string; saved: boolean };

/** The admin's own headers: names in the clear, values typed like passwords and never filled in from the server. */
export function CustomHeaderFields({ headers, onChange, problem }: { headers: HeaderEntry[]; onChange: (headers: HeaderEntry[]) => void; problem?: string }) {
  const change = (index: number, patch: Partial<HeaderEntry>) => onChange(headers.map((header, at) => (at === index ? { ...header, ...patch } : header)));
  return (
    <fieldset data-testid="custom-headers">
      <legend className="text-sm font-medium text-slate-800">Custom headers (optional)</legend>
      <p className="mt-1 text-sm text-slate-500">
        Sent with every message, for receivers that check a header of their own (an API key, <code>Authorization: Basic …</code>). Values are kept encrypted and
        shown once when saved; team members never see these headers.
      </p>
      <div className="mt-2 space-y-2">
        {headers.map((header, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place; names are being typed.
          <div key={index} className="grid gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]">
            <input
              aria-label={`Header ${index + 1} name`}
              className={`${inputClass} mt-0 font-mono`}
              placeholder="X-Api-Key"
              autoComplete="off"
              value={header.name}
              onChange={(event) => change(index, { name: event.target.value })}
            />
            <input
              aria-label={`Header ${index + 1} value`}
              type="password"
              autoComplete="new-password"
              maxLength={maxHeaderValueLength}
              className={`${inputClass} mt-0 font-mono`}
              placeholder={header.saved ? "Saved value kept; type to replace it" : "Value"}
              value={header.value}
              onChange={(event) => change(index, { value: event.target.value })}
            />
            <Button onClick={() => onChange(headers.filter((_, at) => at !== index))}>Remove</Button>
          </div>
        ))}
      </div>
      {problem && <p className="mt-1 text-sm text-red-700">{problem}</p>}
      {headers.length < maxCustomHeaders ? (
        <Button className="mt-2" onClick={() => onChange([...headers, { name: "", value: "", saved: false }])}>
          Add a header
        </Button>
      ) : (
        <p className="mt-2 text-sm text-slate-500">A webhook can have at most {maxCustomHeaders} custom headers.</p>
      )}
    </fieldset>
  );
}
