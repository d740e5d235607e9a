import type { Metadata } from "next";
import Link from "next/link";
import { appDatabase } from "@/server/app-database";
import { currentMember } from "@/server/auth/session";
import { webhookAddresses } from "@/server/settings/webhooks/webhook-addresses";
import { countWebhooks } from "@/server/webhooks/admin/find-webhook";
import { maxWebhooksPerCompany } from "@/server/webhooks/admin/settings-schema";
import { AdminsOnly } from "../../admins-only";
import { WebhookForm } from "../webhook-form";

export const metadata: Metadata = { title: "Add a webhook" };

/** Says how many of the company's webhooks are used before the form is filled, and at the limit shows that instead of the form. */
export default async function NewWebhookPage() {
  const member = await currentMember();
  if (member?.role !== "admin") return <AdminsOnly what="add webhooks" />;
  const used = await countWebhooks(appDatabase().db, member.companyId);
  const atLimit = used >= maxWebhooksPerCompany;
  return (
    <div className="space-y-6">
      <Link href="/settings/webhooks" className="text-sm text-indigo-700 hover:underline">
        ← Webhooks
      </Link>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Add a webhook</h1>
        <p className="mt-1 text-sm text-slate-600" data-testid="webhook-limit">
          {atLimit
            ? `Your company has all ${maxWebhooksPerCompany} of its webhooks. Delete one to add another.`
            : `${used} of ${maxWebhooksPerCompany} webhooks used${used === maxWebhooksPerCompany - 1 ? ": this is the last one your company can add." : "."}`}
        </p>
      </div>
      {!atLimit && <WebhookForm allowTargets={webhookAddresses.allowTargets} />}
    </div>
  );
}
