/** Shown to a team member who opens an admin page; the server refuses the data behind it too. */
export function AdminsOnly({ what }: { what: string }) {
  return (
    <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold">Only admins can {what}</h1>
      <p className="mt-2 text-sm text-slate-600">Ask an admin of your company if you need this.</p>
    </div>
  );
}
