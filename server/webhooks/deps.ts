import type postgres from "postgres";
import type { DomainContext } from "@/server/domain/context";
import type { Mailer } from "@/server/notifications/email";
import type { DeliveryClient } from "./delivery-client";

/** What the webhook services need: the domain context, the read pool, the HTTP client and the mailer. */
export type WebhookDeps = {
  ctx: DomainContext;
  sql: postgres.Sql;
  client: DeliveryClient;
  mailer: Mailer | null;
};
