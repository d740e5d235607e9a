"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { guides } from "./guides";

const linkClass = (current: boolean) =>
  `rounded-md px-2.5 py-1.5 text-sm font-medium ${current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-200"}`;

export function DocsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Documentation" className="flex flex-wrap gap-1">
      {/* A full page load, not a client-side one: the reference needs its own Content-Security-Policy (proxy.ts). */}
      <a href="/docs" aria-current={pathname === "/docs" ? "page" : undefined} className={linkClass(pathname === "/docs")}>
        API reference
      </a>
      {guides.map((guide) => (
        <Link key={guide.href} href={guide.href} aria-current={pathname === guide.href ? "page" : undefined} className={linkClass(pathname === guide.href)}>
          {guide.title}
        </Link>
      ))}
    </nav>
  );
}
