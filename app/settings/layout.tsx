import type { Metadata } from "next";
import type { ReactNode } from "react";
import { requireMember } from "@/server/auth/session";
import { SettingsNav } from "./settings-nav";
import { SettingsProviders } from "./settings-providers";
import { SignOutButton } from "./sign-out-button";

export const metadata: Metadata = { title: { template: "%s · API and webhooks", default: "API and webhooks" } };
export const dynamic = "force-dynamic";

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  return (
    <SettingsProviders viewer={{ role: member.role }}>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <div className="flex flex-wrap items-center gap-4">
            <p className="font-semibold">{member.companyName}</p>
            <SettingsNav role={member.role} />
          </div>
          <div className="flex items-center gap-4">
            <p className="text-sm text-slate-600">
              {member.name} · {member.role === "admin" ? "Admin" : "Team member"}
            </p>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</main>
    </SettingsProviders>
  );
}
