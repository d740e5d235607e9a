/** Companies, their users and their API keys. */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, companies, type UserRole, userRoles, users } from "@/db/schema";
import { generateApiKey } from "@/server/auth/api-key-format";
import { hashPassword } from "@/server/auth/passwords";
import type { DomainContext } from "./context";
import { DomainError, notFound, parseInput } from "./errors";

const name = z.string().trim().min(1, "must not be empty").max(200);

/** `id`, when given, was made beforehand by `ctx.newId("company")`: for a transaction that takes the company's history lock before it writes anything (the demo seed). */
export async function createCompany(ctx: DomainContext, input: { name: string; id?: string }) {
  const id = input.id ?? ctx.newId("company");
  await ctx.db.insert(companies).values({ id, name: parseInput(name, input.name), createdAt: ctx.clock.now() });
  return { id };
}

export async function setCompanySuspended(ctx: DomainContext, companyId: string, suspended: boolean) {
  const updated = await ctx.db
    .update(companies)
    .set({ suspendedAt: suspended ? ctx.clock.now() : null })
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id });
  if (updated.length === 0) throw notFound("company", companyId);
}

const rateLimit = z.number().int().min(1).max(1_000_000).nullable();

/** Per-company API rate limits (requests per minute); null falls back to the configured default. */
export async function setCompanyRateLimits(ctx: DomainContext, companyId: string, limits: { perKey: number | null; perCompany: number | null }) {
  const updated = await ctx.db
    .update(companies)
    .set({ rateLimitPerKey: parseInput(rateLimit, limits.perKey), rateLimitPerCompany: parseInput(rateLimit, limits.perCompany) })
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id });
  if (updated.length === 0) throw notFound("company", companyId);
}

const userInput = z.object({
  companyId: z.string(),
  email: z.email(),
  name,
  role: z.enum(userRoles),
  password: z.string().min(10, "must be at least 10 characters").max(200),
});

export type UserInput = { companyId: string; email: string; name: string; role: UserRole; password: string };

export async function createUser(ctx: DomainContext, input: UserInput) {
  const parsed = parseInput(userInput, input);
  const [company] = await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.id, parsed.companyId));
  if (!company) throw notFound("company", parsed.companyId);
  const id = ctx.newId("user");
  const inserted = await ctx.db
    .insert(users)
    .values({
      id,
      companyId: parsed.companyId,
      email: parsed.email.toLowerCase(),
      name: parsed.name,
      role: parsed.role,
      passwordHash: await hashPassword(parsed.password),
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (inserted.length === 0) throw new DomainError("conflict", `A user with email ${parsed.email} already exists.`);
  return { id };
}

/** Creates a key and returns it whole, the only time it is ever available. */
export async function createApiKey(ctx: DomainContext, input: { companyId: string; name: string; createdByUserId?: string }) {
  const keyName = parseInput(name, input.name);
  const [company] = await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId));
  if (!company) throw notFound("company", input.companyId);
  const { key, hash, displayPrefix } = generateApiKey();
  const id = ctx.newId("apiKey");
  await ctx.db.insert(apiKeys).values({
    id,
    companyId: input.companyId,
    name: keyName,
    hash,
    displayPrefix,
    createdByUserId: input.createdByUserId ?? null,
    createdAt: ctx.clock.now(),
  });
  return { id, key, displayPrefix };
}

/** Revokes a key; `companyId` scopes the call when it comes from a company's settings. */
export async function revokeApiKey(ctx: DomainContext, keyId: string, companyId?: string) {
  const revoked = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${ctx.clock.now().toISOString()}::timestamptz)` })
    .where(and(eq(apiKeys.id, keyId), companyId ? eq(apiKeys.companyId, companyId) : undefined))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw notFound("API key", keyId);
}
