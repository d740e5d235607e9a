import type { Metadata } from "next";
import { CompanyLogSearch } from "./company-log-search";
import { WebhookList } from "./webhook-list";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <WebhookList />
      <CompanyLogSearch />
    </>
  );
}
