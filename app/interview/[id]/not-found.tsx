export default function InterviewNotFound() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
        <h1 className="text-lg font-semibold">Interview not found</h1>
        <p className="mt-2 text-sm text-slate-600">
          There is no interview at this address. It may have been removed, or the link may be incomplete: check it with the company that sent it.
        </p>
      </div>
    </main>
  );
}
