/** Serves the settings router at /api/trpc for the pages (never listed in the public API's document). */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appClock, appDatabase } from "@/server/app-database";
import { currentMember } from "@/server/auth/session";
import { createDomainContext } from "@/server/domain/context";
import { log } from "@/server/log";
import { settingsRouter } from "./router";
import type { SettingsContext } from "./trpc";

/** A cross-site page cannot send one: a JSON content type needs a CORS preflight we never grant. */
const hasJsonBody = (request: Request) => (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");

export function handleSettingsRequest(request: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: settingsRouter,
    createContext: async (): Promise<SettingsContext> => {
      const database = appDatabase();
      return {
        member: await currentMember(),
        domain: createDomainContext(database.db, { clock: appClock() }),
        sql: database.sql,
        jsonBody: hasJsonBody(request),
      };
    },
    // Answers name full addresses and secrets for admins: no cache may keep them.
    responseMeta: () => ({ headers: { "cache-control": "private, no-store" } }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") log.error("settings request failed", { path, error: error.cause ?? error });
    },
  });
}
