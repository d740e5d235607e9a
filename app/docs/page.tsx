import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "./api-reference";
import { guides } from "./guides";

export const metadata: Metadata = { title: "API reference" };

export default function ReferencePage() {
  return (
    <main>
      <section aria-labelledby="guides" className="border-b border-slate-200 bg-white px-4 py-6 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight">Interview API reference</h1>
        <p className="mt-2 max-w-3xl text-slate-600">
          Every endpoint of the read-only API at <code>/v1</code>, from the description it serves at{" "}
          <a className="text-indigo-700 underline" href="/v1/openapi.json">
            /v1/openapi.json
          </a>
          . Start with the guides:
        </p>
        <h2 id="guides" className="sr-only">
          Guides
        </h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {guides.map((guide) => (
            <li key={guide.href}>
              <Link href={guide.href} className="block h-full rounded-lg border border-slate-200 p-3 hover:border-indigo-400 hover:bg-indigo-50">
                <span className="font-medium text-indigo-700">{guide.title}</span>
                <span className="mt-1 block text-sm text-slate-600">{guide.summary}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <ApiReference />
    </main>
  );
}
