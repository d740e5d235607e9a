/**
 * The settings pages' typed access to /api/trpc (only the router's type comes
 * from the server), through tRPC's own TanStack Query integration: each
 * procedure gives its query options, mutation options and cache keys, so no
 * page keeps keys by hand.
 */
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { SettingsRouter } from "@/server/settings/router";

export const { TRPCProvider: SettingsApiProvider, useTRPC: useSettingsApi, useTRPCClient: useSettingsClient } = createTRPCContext<SettingsRouter>();

/** What each procedure returns, for components that take part of a result as a prop. */
export type SettingsOutputs = inferRouterOutputs<SettingsRouter>;

export function createSettingsClient() {
  return createTRPCClient<SettingsRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] });
}
