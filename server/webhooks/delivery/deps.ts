import type postgres from "postgres";
import type { DomainContext } from "@/server/domain/context";
import type { DeliveryClient } from "./delivery-client";

/** What delivering and maintaining webhooks needs: the domain context, the read pool and the HTTP client. */
export type DeliveryDeps = {
  ctx: DomainContext;
  sql: postgres.Sql;
  client: DeliveryClient;
};
