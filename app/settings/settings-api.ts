/** The settings pages' typed client for /api/trpc (only the router's type comes from the server). */
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { SettingsRouter } from "@/server/settings/router";

export const settingsApi = createTRPCClient<SettingsRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] });
