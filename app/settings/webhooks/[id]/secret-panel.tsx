"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { goStandardLibrary, nodeStandardLibrary, pythonStandardLibrary } from "@/app/docs/verifying-signatures/samples";
import { Button } from "@/app/ui/button";
import { CopyButton } from "@/app/ui/copy-button";
import { Dialog } from "@/app/ui/dialog";
import { formatDateTime } from "@/app/ui/format";
import { ErrorState } from "@/app/ui/states";
import { useSettingsApi } from "../../settings-api";

/** The guide's own samples (tested against our signatures in tests/docs/guide-samples.test.ts). */
const snippets = [
  { language: "Node.js", code: nodeStandardLibrary },
  { language: "Python", code: pythonStandardLibrary },
  { language: "Go", code: goStandardLibrary },
] as const;

/** Reveal or replace the signing secret, end the previous one's overlap, and show receivers how to check signatures. */
export function SecretPanel({ webhookId, previousSecretValidUntil }: { webhookId: string; previousSecretValidUntil: string | null }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<"replace" | "expire" | null>(null);
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const api = useSettingsApi();
  const refreshDetails = () => queryClient.invalidateQueries(api.webhooks.get.queryFilter({ id: webhookId }));
  const reveal = useMutation(api.webhooks.revealSecret.mutationOptions({ onSuccess: ({ secret }) => setShownSecret(secret) }));
  const rotate = useMutation(
    api.webhooks.rotateSecret.mutationOptions({
      onSuccess: async ({ secret }) => {
        expire.reset();
        setShownSecret(secret);
        await refreshDetails();
        setConfirming(null);
      },
    }),
  );
  const expire = useMutation(
    api.webhooks.expirePreviousSecret.mutationOptions({
      onSuccess: async () => {
        await refreshDetails();
        setConfirming(null);
      },
    }),
  );
  const failed = [reveal, rotate, expire].find((mutation) => mutation.isError);

  return (
    <section aria-labelledby="secret-title" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="secret-title" className="font-semibold">
        Signing secret
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Every message carries a <code>Service-Signature</code> header: an HMAC-SHA256 of <code>{"<t>.<raw body>"}</code> keyed with this secret.
      </p>
      {shownSecret ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <code data-testid="webhook-secret" className="min-w-0 flex-1 break-all rounded bg-slate-100 px-3 py-2 font-mono text-sm">
            {shownSecret}
          </code>
          <CopyButton value={shownSecret} label="Copy secret" />
        </div>
      ) : (
        <Button className="mt-3" busy={reveal.isPending} onClick={() => reveal.mutate({ id: webhookId })}>
          Reveal secret
        </Button>
      )}
      {expire.isSuccess && !previousSecretValidUntil && (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          The previous secret stopped signing: messages now carry one signature, made with the new secret.
        </p>
      )}
      {previousSecretValidUntil && (
        <div role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <p>The previous secret keeps signing too until {formatDateTime(previousSecretValidUntil)}, so receivers can switch over.</p>
          <Button className="mt-2" onClick={() => setConfirming("expire")}>
            Stop signing with the previous secret now
          </Button>
        </div>
      )}
      {failed && !confirming && (
        <div className="mt-3">
          <ErrorState error={failed.error} />
        </div>
      )}
      <div className="mt-3">
        <Button onClick={() => setConfirming("replace")}>Replace secret</Button>
      </div>
      <VerificationSnippets />
      <Dialog open={confirming === "replace"} title="Replace the signing secret?" onClose={() => setConfirming(null)}>
        <p className="text-sm text-slate-700">
          A new secret signs every message from now on. For the next 24 hours messages carry a signature with the old secret as well, so receivers have a day to
          switch.
        </p>
        {rotate.isError && <ErrorState error={rotate.error} />}
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setConfirming(null)}>Cancel</Button>
          <Button variant="danger" busy={rotate.isPending} onClick={() => rotate.mutate({ id: webhookId })}>
            Replace secret
          </Button>
        </div>
      </Dialog>
      <Dialog open={confirming === "expire"} title="Stop signing with the previous secret now?" onClose={() => setConfirming(null)}>
        <p className="text-sm text-slate-700">
          From now on messages carry one signature, made with the current secret only. Receivers still checking with the previous secret will reject them, and
          those messages fail and are retried. This cannot be undone.
        </p>
        {expire.isError && <ErrorState error={expire.error} />}
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setConfirming(null)}>Keep both for now</Button>
          <Button variant="danger" busy={expire.isPending} onClick={() => expire.mutate({ id: webhookId })}>
            Stop signing with the previous secret
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

/** The check in three languages; long lines wrap, so nothing is cut off however narrow the panel. */
function VerificationSnippets() {
  const [chosen, setChosen] = useState<(typeof snippets)[number]["language"]>("Node.js");
  const snippet = snippets.find((candidate) => candidate.language === chosen)!;
  return (
    <details className="mt-4">
      <summary className="cursor-pointer text-sm font-medium text-slate-700">How receivers check the signature</summary>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <div role="tablist" aria-label="Language" className="flex gap-1">
          {snippets.map(({ language }) => (
            <button
              key={language}
              type="button"
              role="tab"
              aria-selected={language === chosen}
              onClick={() => setChosen(language)}
              className={`rounded-md px-3 py-1 text-sm font-medium ${language === chosen ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {language}
            </button>
          ))}
        </div>
        <CopyButton value={snippet.code} label="Copy code" />
      </div>
      <pre
        role="tabpanel"
        aria-label={`${chosen} signature check`}
        data-testid="verification-snippet"
        className="mt-2 whitespace-pre-wrap break-words rounded bg-slate-900 p-3 text-xs leading-relaxed text-slate-100 [overflow-wrap:anywhere]"
      >
        {snippet.code}
      </pre>
      <p className="mt-2 text-sm text-slate-600">
        Pass the raw body, the <code>Service-Signature</code> header and the secret.{" "}
        <Link href="/docs/verifying-signatures" className="text-indigo-700 hover:underline">
          The guide
        </Link>{" "}
        shows them in Express, Flask and net/http, and with Stripe&apos;s and Standard Webhooks&apos; libraries.
      </p>
    </details>
  );
}
