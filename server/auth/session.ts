/** The signed-in member for pages and route handlers, re-checked against the database each time. */

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { cache } from "react";
import { appDatabase } from "@/server/app-database";
import { requestedPathHeader, signInPath } from "./callback-path";
import { loadMember, type Member, type SessionClaims } from "./members";
import { authOptions } from "./next-auth-options";

/** Once per request: a page and its layout both ask, and must get the same answer. */
export const currentMember = cache(async (): Promise<Member | null> => {
  const session = (await getServerSession(authOptions)) as { claims?: SessionClaims } | null;
  if (!session?.claims?.userId) return null;
  return loadMember(appDatabase().sql, session.claims);
});

/** The signed-in member, or a redirect to sign-in that comes back to the page asked for (proxy.ts names it). */
export async function requireMember(): Promise<Member> {
  const member = await currentMember();
  if (!member) redirect(signInPath((await headers()).get(requestedPathHeader)));
  return member;
}
