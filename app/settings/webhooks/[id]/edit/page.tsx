import type { Metadata } from "next";
import Link from "next/link";
import { currentMember } from "@/server/auth/session";
import { webhookAddresses } from "@/server/settings/webhooks/webhook-addresses";
import { AdminsOnly } from "../../../admins-only";
import { WebhookForm } from "../../webhook-form";

export const metadata: Metadata = { title: "Edit webhook" };

export default async function EditWebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const member = await currentMember();
  if (member?.role !== "admin") return <AdminsOnly what="change webhooks" />;
  return (
    <div className="space-y-6">
      <Link href={`/settings/webhooks/${id}`} className="text-sm text-indigo-700 hover:underline">
        ← Back to the webhook
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">Edit webhook</h1>
      <WebhookForm webhookId={id} allowTargets={webhookAddresses.allowTargets} />
    </div>
  );
}
