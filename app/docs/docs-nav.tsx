"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { guides } from "./guides";

const links = [{ href: "/docs", title: "API reference" }, ...guides];

export function DocsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Documentation" className="flex flex-wrap gap-1">
      {links.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          aria-current={pathname === link.href ? "page" : undefined}
          className={`rounded-md px-2.5 py-1.5 text-sm font-medium ${pathname === link.href ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-200"}`}
        >
          {link.title}
        </Link>
      ))}
    </nav>
  );
}
