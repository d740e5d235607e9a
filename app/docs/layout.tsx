import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DocsNav } from "./docs-nav";

export const metadata: Metadata = { title: { template: "%s · Interview API docs", default: "Interview API docs" } };

export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
          <a href="/" className="font-semibold">
            Interview API
          </a>
          <DocsNav />
        </div>
      </header>
      {children}
    </>
  );
}
