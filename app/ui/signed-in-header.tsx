import type { ReactNode } from "react";
import { SignOutButton } from "@/app/settings/sign-out-button";
import type { Member } from "@/server/auth/members";

/** The bar above every page behind sign-in: the company, the area's links (`nav`), who is signed in, and sign-out. */
export function SignedInHeader({ member, nav, width }: { member: Member; nav: ReactNode; width: "max-w-5xl" | "max-w-6xl" }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className={`mx-auto flex ${width} flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6`}>
        <div className="flex flex-wrap items-center gap-4">
          <p className="font-semibold">{member.companyName}</p>
          {nav}
        </div>
        <div className="flex items-center gap-4">
          <p className="text-sm text-slate-600">
            {member.name} · {member.role === "admin" ? "Admin" : "Team member"}
          </p>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
