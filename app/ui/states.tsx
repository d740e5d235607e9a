import type { ReactNode } from "react";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-6 text-sm text-slate-500">
      <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" />
      {label}
    </p>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      <p>{messageOf(error)}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 font-medium underline">
          Try again
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
      <p className="font-medium text-slate-700">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-500">{children}</div>}
    </div>
  );
}

/** The server's message when there is one (ours are written for people), else a plain fallback. */
export function messageOf(error: unknown) {
  if (error instanceof Error && error.message) {
    if (error.message === "Failed to fetch") return "We could not reach the server. Check your connection and try again.";
    return error.message;
  }
  return "Something went wrong. Try again.";
}
