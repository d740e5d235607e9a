/** The signed-in member for pages and route handlers, re-checked against the database each time. */
import { getServerSession } from "next-auth";
import { cache } from "react";
import { appDatabase } from "@/server/app-database";
import { loadMember, type Member, type SessionClaims } from "./members";
import { authOptions } from "./next-auth-options";

/** Once per request: a page and its layout both ask, and must get the same answer. */
export const currentMember = cache(async (): Promise<Member | null> => {
  const session = (await getServerSession(authOptions)) as { claims?: SessionClaims } | null;
  if (!session?.claims?.userId) return null;
  return loadMember(appDatabase().sql, session.claims);
});
