"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

export function SettingsNav({ links }: { links: Array<{ href: string; label: string }> }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="flex gap-1">
      {links.map((link) => {
        const current = pathname.startsWith(link.href);
        return (
          <Link
            key={link.href}
            href={link.href}
            aria-current={current ? "page" : undefined}
            className={`rounded-md px-3 py-2 text-sm font-medium ${current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-200"}`}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
