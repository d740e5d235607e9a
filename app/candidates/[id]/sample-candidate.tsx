import Link from "next/link";

/** Where a sample message's `dashboard_url` leads: the sample's candidate is made up, so there is nothing more to show. */
export function SampleCandidate() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sam Sample is a sample candidate</h1>
      <p className="mt-3 max-w-2xl text-sm text-slate-700">
        This link came from a sample webhook message (its <code>test</code> is <code>true</code>). Sam Sample is made up to show what a message looks like:
        there is no candidate to see, and the API answers <code>404</code> for this candidate&apos;s transcript and recording links.
      </p>
      <p className="mt-3 max-w-2xl text-sm text-slate-700">
        In a real message, <code>dashboard_url</code> opens that candidate&apos;s page here, with their status, result, answers, documents, transcript and
        recording.
      </p>
      <div className="mt-4 flex flex-wrap gap-4 text-sm font-medium">
        <Link href="/settings/events" className="text-indigo-700 underline">
          See every event type with an example
        </Link>
        <Link href="/settings/webhooks" className="text-indigo-700 underline">
          Go to your webhooks
        </Link>
      </div>
    </div>
  );
}
