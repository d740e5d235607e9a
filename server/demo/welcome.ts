import { createDatabase } from "@/db/client";
import { createDomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { type DemoWebhook, seedDemo } from "./seed";

/** Seeds the demo company on the first start and prints how to sign in. */
export async function printDemoWelcome(databaseUrl: string, options: { webhook?: DemoWebhook } = {}) {
  const database = createDatabase(databaseUrl, { max: 2 });
  try {
    const result = await seedDemo(createDomainContext(database.db), options);
    const lines = result.created
      ? [
          "Demo company created. These are shown once; keep them somewhere safe:",
          `  Settings:        ${env.APP_URL}/settings`,
          `  Admin sign-in:   ${result.admin.email}  /  ${result.admin.password}`,
          `  Member sign-in:  ${result.member.email}  /  ${result.member.password}`,
          `  Demo API key:    ${result.api_key}`,
          `  Try it:          curl -H "Authorization: Bearer ${result.api_key}" ${env.APP_URL}/v1/me`,
        ]
      : [`Demo company ${result.company_id} is already set up (its sign-ins were printed on the first start). Settings: ${env.APP_URL}/settings`];
    console.log(["", ...lines, ""].join("\n"));
  } finally {
    await database.close();
  }
}
