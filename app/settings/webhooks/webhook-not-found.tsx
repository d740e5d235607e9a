import { TRPCClientError } from "@trpc/client";
import Link from "next/link";
import { EmptyState } from "@/app/ui/states";

/** The server's answer for a webhook id that is not (or no longer) the company's. */
export const isWebhookNotFound = (error: unknown) => error instanceof TRPCClientError && error.data?.code === "NOT_FOUND";

/** Shown at the address of a deleted webhook (or an id that never existed): trying again would not help. */
export function WebhookNotFound() {
  return (
    <EmptyState title="This webhook was deleted, or never existed">
      Nothing is sent from it any more.{" "}
      <Link href="/settings/webhooks" className="font-medium text-indigo-700 hover:underline">
        See your webhooks
      </Link>
    </EmptyState>
  );
}
