import { env } from "@/server/env";
import type { AddressOptions } from "@/server/webhooks/admin/webhook-settings";

/**
 * How the settings pages vet webhook addresses: against this web process's
 * WEBHOOK_ALLOW_TARGETS, which the form is given too so it checks as admins
 * type. Under `npm run dev` the list includes the demo receiver, handed to
 * the development web server through its environment by `server/runtime/main.ts`.
 */
export const webhookAddresses: AddressOptions = { allowTargets: env.WEBHOOK_ALLOW_TARGETS };
