import type { Metadata } from "next";
import { WebhookList } from "./webhook-list";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return <WebhookList />;
}
