"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { UserRole } from "@/db/schema";

const links: Array<{ href: string; label: string; adminsOnly?: boolean }> = [
  { href: "/settings/webhooks", label: "Webhooks" },
  { href: "/settings/api-keys", label: "API keys", adminsOnly: true },
  { href: "/settings/events", label: "Event types" },
];

export function SettingsNav({ role }: { role: UserRole }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="flex gap-1">
      {links
        .filter((link) => role === "admin" || !link.adminsOnly)
        .map((link) => {
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
      {/* A full page load: the docs have their own layout and Content-Security-Policy (proxy.ts). */}
      <a href="/docs" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200">
        API docs
      </a>
    </nav>
  );
}
