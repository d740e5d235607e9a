export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Interview API and webhooks</h1>
      <p className="mt-4 text-slate-600">
        Read your interviews, candidates, transcripts and recordings over a read-only REST API, and receive signed webhook messages when candidates are
        submitted, scored, ready or change status.
      </p>
      <ul className="mt-8 space-y-2 text-slate-700">
        <li>
          API base address: <code className="rounded bg-slate-200 px-1.5 py-0.5">/v1</code>, with{" "}
          <code className="rounded bg-slate-200 px-1.5 py-0.5">Authorization: Bearer &lt;API key&gt;</code>
        </li>
        <li>
          <a className="text-indigo-700 underline" href="/docs">
            API reference
          </a>{" "}
          and guides (authentication, pagination, the event history, errors, webhooks and their signatures)
        </li>
        <li>
          API description:{" "}
          <a className="text-indigo-700 underline" href="/v1/openapi.json">
            /v1/openapi.json
          </a>
        </li>
      </ul>
      <a href="/settings/webhooks" className="mt-10 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700">
        Open the settings (API keys and webhooks)
      </a>
    </main>
  );
}
