import type { Metadata } from "next";
import type { ReactNode } from "react";
import { requireMember } from "@/server/auth/session";
import { SignOutButton } from "../settings/sign-out-button";

export const metadata: Metadata = { title: { template: "%s · Candidates", default: "Candidate" } };
export const dynamic = "force-dynamic";

/** Candidate pages (the API's `dashboard_url`) are for the signed-in team of the candidate's company. */
export default async function CandidatesLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <div className="flex flex-wrap items-center gap-4">
            <p className="font-semibold">{member.companyName}</p>
            <a href="/settings/webhooks" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200">
              Settings
            </a>
          </div>
          <div className="flex items-center gap-4">
            <p className="text-sm text-slate-600">
              {member.name} · {member.role === "admin" ? "Admin" : "Team member"}
            </p>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">{children}</main>
    </>
  );
}
