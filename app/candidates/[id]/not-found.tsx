import Link from "next/link";

export default function CandidateNotFound() {
  return (
    <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold">Candidate not found</h1>
      <p className="mt-2 text-sm text-slate-600">
        There is no candidate with this address in your company. Check the link, or ask whoever sent it which company it belongs to.
      </p>
      <Link href="/settings/webhooks" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline">
        Go to the settings
      </Link>
    </div>
  );
}
