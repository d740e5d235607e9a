/**
 * The demo company: an admin, a team member, an API key and two weeks of
 * simulated activity. Idempotent: a second run finds the company and changes
 * nothing. Passwords and the key are random and returned only when created.
 */

import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { createApiKey, createCompany, createUser } from "@/server/domain/accounts";
import type { DomainContext } from "@/server/domain/context";
import { lockCompanyHistory } from "@/server/domain/history-lock";
import { type AddressOptions, createWebhook } from "@/server/webhooks/admin/webhook-settings";
import type { DeliveryDeps } from "@/server/webhooks/delivery/deps";
import { deliverHistory } from "./delivery-history";
import { simulate } from "./simulate";

export const demoAdminEmail = "admin@example.com";
export const demoMemberEmail = "member@example.com";

/** What the demo webhook is, for whoever finds it in the list. */
const demoWebhookText = {
  name: "Demo receiver (npm run dev)",
  description:
    "A small HTTPS receiver that npm run dev runs on this machine. It turns away about one message in eight on its first try, so the retries have something to show.",
};

export type SeedResult =
  | { created: false; company_id: string }
  | {
      created: true;
      company_id: string;
      admin: { email: string; password: string };
      member: { email: string; password: string };
      api_key: string;
    };

/**
 * A webhook for the demo company (made first, so the history is delivered to
 * it), the address options that allow its target and, to deliver the history
 * at the times it happened (delivery-history.ts), the read pool and the
 * delivery client that reaches it.
 */
export type DemoWebhook = { url: string; addresses: AddressOptions; deliveries?: Omit<DeliveryDeps, "ctx"> };

export async function seedDemo(ctx: DomainContext, options: { webhook?: DemoWebhook } = {}): Promise<SeedResult> {
  // One seeder at a time, so two processes starting together make one company.
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('interview-api:seed'))`);
    const [existing] = await tx.select({ companyId: users.companyId }).from(users).where(eq(users.email, demoAdminEmail));
    if (existing) return { created: false, company_id: existing.companyId };
    // The whole demo is written in this one transaction, so it takes the new
    // company's history lock while it has no id yet (history-lock.ts).
    const companyId = ctx.newId("company");
    await lockCompanyHistory(tx, [companyId]);

    const scoped: DomainContext = { ...ctx, db: tx as unknown as DomainContext["db"] };
    const password = () => randomBytes(9).toString("base64url");
    const admin = { email: demoAdminEmail, password: password() };
    const member = { email: demoMemberEmail, password: password() };
    await createCompany(scoped, { id: companyId, name: "Northwind Talent (demo)" });
    const { id: adminId } = await createUser(scoped, { companyId, email: admin.email, name: "Priya Shah", role: "admin", password: admin.password });
    await createUser(scoped, { companyId, email: member.email, name: "Tom Becker", role: "member", password: member.password });
    const { key } = await createApiKey(scoped, { companyId, name: "Demo key", createdByUserId: adminId });
    if (options.webhook) await createWebhook(scoped, companyId, { url: options.webhook.url, ...demoWebhookText }, options.webhook.addresses);
    const now = ctx.clock.now();
    await simulate(scoped, { companyId, interviews: 4, candidates: 60, seed: 20261121, now });
    if (options.webhook?.deliveries) await deliverHistory({ ...options.webhook.deliveries, ctx: scoped }, companyId, now);
    return { created: true, company_id: companyId, admin, member, api_key: key };
  });
}
