import { createDatabase } from "@/db/client";
import { createDomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { createDeliveryClient } from "@/server/webhooks/delivery/delivery-client";
import { type DemoWebhook, seedDemo } from "./seed";

/** The demo webhook, and the CA that its receiver's certificate needs (PEM). */
type WelcomeWebhook = Omit<DemoWebhook, "deliveries"> & { extraCa?: string };

/** Seeds the demo company on the first start and prints how to sign in. */
export async function printDemoWelcome(databaseUrl: string, options: { webhook?: WelcomeWebhook } = {}) {
  const database = createDatabase(databaseUrl, { max: 2 });
  const given = options.webhook;
  // The seed delivers the history to the webhook as it happened (delivery-history.ts).
  const client = given ? createDeliveryClient({ allowTargets: given.addresses.allowTargets, extraCa: given.extraCa }) : null;
  try {
    const webhook: DemoWebhook | undefined =
      given && client ? { url: given.url, addresses: given.addresses, deliveries: { sql: database.sql, client } } : undefined;
    const result = await seedDemo(createDomainContext(database.db), { webhook });
    const lines = result.created
      ? [
          "Demo company created. These are shown once; keep them somewhere safe:",
          `  Settings:        ${env.APP_URL}/settings`,
          `  Admin sign-in:   ${result.admin.email}  /  ${result.admin.password}`,
          `  Member sign-in:  ${result.member.email}  /  ${result.member.password}`,
          `  Demo API key:    ${result.api_key}`,
          `  Try it:          curl -H "Authorization: Bearer ${result.api_key}" ${env.APP_URL}/v1/me`,
        ]
      : [
          `Demo company ${result.company_id} is already set up (its sign-ins were printed on the first start; lost them? see "Lost the demo sign-ins?" in the README). Settings: ${env.APP_URL}/settings`,
        ];
    console.log(["", ...lines, ""].join("\n"));
  } finally {
    await client?.close();
    await database.close();
  }
}
