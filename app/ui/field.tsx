import { type InputHTMLAttributes, type ReactNode, useId } from "react";

/** The look of every text input and select in the settings. */
export const inputClass =
  "mt-1 block w-full rounded-md border-0 px-3 py-2 text-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 aria-[invalid]:ring-red-500";

/** A labelled input whose problem, if any, is announced with it. */
export function Field({
  label,
  hint,
  problem,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; problem?: string | null }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : hint ? `${id}-hint` : undefined}
        className={inputClass}
        {...input}
      />
      {problem ? (
        <p id={`${id}-problem`} className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="mt-1 text-sm text-slate-500">
            {hint}
          </p>
        )
      )}
    </div>
  );
}
