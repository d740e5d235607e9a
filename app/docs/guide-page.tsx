import Link from "next/link";
import type { ReactNode } from "react";
import { CopyButton } from "@/app/ui/copy-button";
import { guides } from "./guides";

/**
 * One guide: plain headings, paragraphs, lists, tables and code, styled here
 * once so the pages stay plain JSX. Every guide ends with a link to the next
 * one and back to the reference (a full page load: see DocsNav).
 */
export function GuidePage({ href, children }: { href: (typeof guides)[number]["href"]; children: ReactNode }) {
  const index = guides.findIndex((guide) => guide.href === href);
  const guide = guides[index]!;
  const next = guides[index + 1];
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <article className="leading-7 text-slate-800 [&_a]:text-indigo-700 [&_a]:underline [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_h3]:mt-6 [&_h3]:font-semibold [&_li]:mt-1 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_table]:w-full [&_table]:text-left [&_table]:text-sm [&_td]:border-t [&_td]:border-slate-200 [&_td]:py-2 [&_td]:pr-4 [&_td]:align-top [&_th]:py-2 [&_th]:pr-4 [&_th]:font-semibold [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6 [&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-200 [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:text-[0.9em]">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{guide.title}</h1>
        {children}
      </article>
      <nav aria-label="Next" className="mt-12 flex flex-wrap justify-between gap-4 border-t border-slate-200 pt-6 text-sm">
        <a href="/docs" className="text-indigo-700 underline">
          API reference
        </a>
        {next && (
          <Link href={next.href} className="text-indigo-700 underline">
            Next: {next.title}
          </Link>
        )}
      </nav>
    </main>
  );
}

/** A code sample with a copy button; `title` says what it is (a language, a file, a request). */
export function CodeBlock({ title, code }: { title: string; code: string }) {
  return (
    <figure className="mt-4 overflow-hidden rounded-lg border border-slate-300 bg-slate-900">
      <figcaption className="flex items-center justify-between gap-2 bg-slate-800 px-3 py-1.5 text-xs text-slate-300">
        <span>{title}</span>
        <CopyButton value={code} />
      </figcaption>
      <pre className="overflow-x-auto p-4 text-sm leading-6 text-slate-100">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/**
 * A table in a box of its own that scrolls sideways when the table is wider
 * than the page (a phone), so the page itself never does. The box can take
 * focus, so a keyboard can scroll it too; `label` names it for screen readers.
 */
export function GuideTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled without a mouse
    <section aria-label={label} tabIndex={0} className="mt-4 overflow-x-auto">
      <table>{children}</table>
    </section>
  );
}
