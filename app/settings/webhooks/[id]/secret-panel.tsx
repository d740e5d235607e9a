"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/app/ui/button";
import { CopyButton } from "@/app/ui/copy-button";
import { Dialog } from "@/app/ui/dialog";
import { formatDateTime } from "@/app/ui/format";
import { ErrorState } from "@/app/ui/states";
import { settingsApi } from "../../settings-api";
import { webhookQueries } from "../webhook-queries";

const verificationSnippet = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request body exactly as it arrived, before any JSON parsing.
export function isSignedByUs(rawBody, signatureHeader, secret) {
  const parts = signatureHeader.split(",").map((part) => part.split("="));
  const timestamp = Number(parts.find(([name]) => name === "t")?.[1]);
  if (!(Math.abs(Date.now() / 1000 - timestamp) <= 300)) return false;
  const expected = createHmac("sha256", secret).update(\`\${timestamp}.\${rawBody}\`).digest();
  return parts
    .filter(([name]) => name === "v1")
    .some(([, value]) => {
      const given = Buffer.from(value, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

// isSignedByUs(rawBody, request.headers["service-signature"], process.env.WEBHOOK_SECRET)`;

/** Reveal or replace the signing secret, and show receivers how to check signatures. */
export function SecretPanel({ webhookId, previousSecretValidUntil }: { webhookId: string; previousSecretValidUntil: string | null }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const reveal = useMutation({ mutationFn: () => settingsApi.webhooks.revealSecret.mutate({ id: webhookId }) });
  const rotate = useMutation({
    mutationFn: () => settingsApi.webhooks.rotateSecret.mutate({ id: webhookId }),
    onSuccess: () => {
      reveal.reset();
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: webhookQueries.one(webhookId) });
    },
  });
  const secret = rotate.data?.secret ?? reveal.data?.secret;
  const oldValidUntil = rotate.data?.previousValidUntil ?? previousSecretValidUntil;

  return (
    <section aria-labelledby="secret-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="secret-title" className="font-semibold">
        Signing secret
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Every message carries a <code>Service-Signature</code> header: an HMAC-SHA256 of <code>{"<t>.<raw body>"}</code> keyed with this secret.
      </p>
      {secret ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <code data-testid="webhook-secret" className="min-w-0 flex-1 break-all rounded bg-slate-100 px-3 py-2 font-mono text-sm">
            {secret}
          </code>
          <CopyButton value={secret} label="Copy secret" />
        </div>
      ) : (
        <Button className="mt-3" busy={reveal.isPending} onClick={() => reveal.mutate()}>
          Reveal secret
        </Button>
      )}
      {oldValidUntil && (
        <p role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          The previous secret keeps signing too until {formatDateTime(oldValidUntil)}, so receivers can switch over.
        </p>
      )}
      {(reveal.isError || rotate.isError) && (
        <div className="mt-3">
          <ErrorState error={reveal.error ?? rotate.error} />
        </div>
      )}
      <div className="mt-3">
        <Button onClick={() => setConfirming(true)}>Replace secret</Button>
      </div>
      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-medium text-slate-700">How receivers check the signature (Node.js)</summary>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">{verificationSnippet}</pre>
      </details>
      <Dialog open={confirming} title="Replace the signing secret?" onClose={() => setConfirming(false)}>
        <p className="text-sm text-slate-700">
          A new secret signs every message from now on. For the next 24 hours messages carry a signature with the old secret as well, so receivers have a day to
          switch.
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button variant="danger" busy={rotate.isPending} onClick={() => rotate.mutate()}>
            Replace secret
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
