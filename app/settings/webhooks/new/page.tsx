import type { Metadata } from "next";
import Link from "next/link";
import { currentMember } from "@/server/auth/session";
import { webhookAddresses } from "@/server/settings/webhooks/webhook-addresses";
import { AdminsOnly } from "../../admins-only";
import { WebhookForm } from "../webhook-form";

export const metadata: Metadata = { title: "Add a webhook" };

export default async function NewWebhookPage() {
  const member = await currentMember();
  if (member?.role !== "admin") return <AdminsOnly what="add webhooks" />;
  return (
    <div className="space-y-6">
      <Link href="/settings/webhooks" className="text-sm text-indigo-700 hover:underline">
        ← Webhooks
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">Add a webhook</h1>
      <WebhookForm allowTargets={webhookAddresses.allowTargets} />
    </div>
  );
}
