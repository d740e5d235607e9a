import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SignedInHeader } from "@/app/ui/signed-in-header";
import { requireMember } from "@/server/auth/session";
import { SettingsNav } from "./settings-nav";
import { SettingsProviders } from "./settings-providers";

export const metadata: Metadata = { title: { template: "%s · API and webhooks", default: "API and webhooks" } };
export const dynamic = "force-dynamic";

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  return (
    <SettingsProviders viewer={{ role: member.role }}>
      <SignedInHeader member={member} width="max-w-6xl" nav={<SettingsNav role={member.role} />} />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</main>
    </SettingsProviders>
  );
}
