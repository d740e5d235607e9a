import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SignedInHeader } from "@/app/ui/signed-in-header";
import { requireMember } from "@/server/auth/session";

export const metadata: Metadata = { title: { template: "%s · Candidates", default: "Candidate" } };
export const dynamic = "force-dynamic";

/** Candidate pages (the API's `dashboard_url`) are for the signed-in team of the candidate's company. */
export default async function CandidatesLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  return (
    <>
      <SignedInHeader
        member={member}
        width="max-w-5xl"
        nav={
          <a href="/settings/webhooks" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200">
            Settings
          </a>
        }
      />
      <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">{children}</main>
    </>
  );
}
