import type { Metadata } from "next";
import { CopyButton } from "@/app/ui/copy-button";
import { eventTypes } from "@/db/schema/event-types";
import { openApiExamples } from "@/server/examples/openapi-examples";
import { eventTypeLabels } from "../webhooks/event-type-labels";
import { whenProduced } from "./event-catalog";

export const metadata: Metadata = { title: "Event types" };

/**
 * Every webhook event type: when it is produced and a real example body. The
 * examples are the API reference's (`npm run openapi:examples`), so both
 * always show the same message.
 */
export default function EventTypesPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Event types</h1>
        <p className="mt-2 max-w-3xl text-sm text-slate-600">
          A webhook receives the types it was set up for, as an HTTPS POST whose body is the event with the candidate&apos;s latest data. The same events are in
          the API&apos;s history (<code>GET /v1/events</code>, 30 days). Nothing is produced before a candidate finishes, and nothing for previews taken by your
          team. Messages about one candidate arrive in the order they happened; the same message may arrive twice with the same <code>id</code>.
        </p>
        <p className="mt-2 text-sm text-slate-600">
          The examples are real messages from a demo company&apos;s history, the same as in the{" "}
          <a href="/docs" className="text-indigo-700 underline">
            API reference
          </a>
          .
        </p>
      </div>
      {eventTypes.map((type) => {
        const example = JSON.stringify(openApiExamples.webhooks[type]?.body ?? null, null, 2);
        return (
          <section key={type} aria-labelledby={`event-${type}`} data-testid={`event-type-${type}`} className="rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id={`event-${type}`} className="font-semibold">
                <code>{type}</code>
              </h2>
              <span className="text-sm text-slate-500">{eventTypeLabels[type]} in the webhook settings</span>
            </div>
            <h3 className="mt-3 text-sm font-medium text-slate-800">When it is produced</h3>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
              {whenProduced[type].map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <div className="mt-4 flex items-center justify-between gap-2">
              <h3 className="text-sm font-medium text-slate-800">Example body</h3>
              <CopyButton value={example} label="Copy example" />
            </div>
            <pre data-testid={`example-${type}`} className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
              {example}
            </pre>
          </section>
        );
      })}
    </div>
  );
}
