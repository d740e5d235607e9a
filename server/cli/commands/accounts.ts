import { userRoles } from "@/db/schema";
import { createApiKey, createCompany, createUser, revokeApiKey, setCompanyRateLimits, setCompanySuspended } from "@/server/domain/accounts";
import { type Command, type Flags, positional, required, requiredText, UsageError } from "../arguments";

/** A rate limit as typed: requests per minute, or `default` for the configured one (RATE_LIMIT_PER_KEY, RATE_LIMIT_PER_COMPANY). */
function rateLimit(flags: Flags, name: string): number | null {
  const value = required(flags, name);
  if (value === "default") return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number of requests per minute or "default", got ${value}`);
  return Number(value);
}

export const accountCommands: Record<string, Command> = {
  "company create": {
    summary: "Creates a company.",
    options: { name: requiredText("NAME", "the company's name") },
    run: async ({ ctx }, flags) => {
      const { id } = await createCompany(ctx, { name: required(flags, "name") });
      return { json: { id }, text: `Created company ${id}` };
    },
  },
  "company suspend": {
    summary: "Suspends a company: its API keys and sign-ins stop working until it is unsuspended.",
    argument: "ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await setCompanySuspended(ctx, id, true);
      return { json: { id, suspended: true }, text: `Suspended company ${id}` };
    },
  },
  "company unsuspend": {
    summary: "Lifts a company's suspension.",
    argument: "ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await setCompanySuspended(ctx, id, false);
      return { json: { id, suspended: false }, text: `Company ${id} is active again` };
    },
  },
  "company rate-limits": {
    summary: "Sets a company's API rate limits, in requests per minute: per key and for the whole company.",
    argument: "ID",
    options: {
      "per-key": requiredText("N|default", "requests per minute for each of its keys; default: RATE_LIMIT_PER_KEY"),
      "per-company": requiredText("N|default", "requests per minute for all its keys together; default: RATE_LIMIT_PER_COMPANY"),
    },
    run: async ({ ctx }, flags, args) => {
      const id = positional(args, "ID");
      const limits = { perKey: rateLimit(flags, "per-key"), perCompany: rateLimit(flags, "per-company") };
      await setCompanyRateLimits(ctx, id, limits);
      const shown = (limit: number | null) => (limit === null ? "the default" : `${limit} a minute`);
      return {
        json: { id, per_key: limits.perKey, per_company: limits.perCompany },
        text: `Company ${id}: ${shown(limits.perKey)} per key, ${shown(limits.perCompany)} for the company`,
      };
    },
  },
  "user create": {
    summary: "Creates a user who can sign in to the settings.",
    options: {
      company: requiredText("ID", "the user's company"),
      email: requiredText("EMAIL", "the sign-in email"),
      name: requiredText("NAME", "the user's name"),
      role: requiredText(userRoles.join("|"), "admins manage keys and webhooks; members see webhook health"),
      password: requiredText("PASSWORD", "the sign-in password"),
    },
    run: async ({ ctx }, flags) => {
      const role = required(flags, "role");
      if (!userRoles.includes(role as never)) throw new UsageError(`--role must be ${userRoles.join(" or ")}`);
      const { id } = await createUser(ctx, {
        companyId: required(flags, "company"),
        email: required(flags, "email"),
        name: required(flags, "name"),
        role: role as (typeof userRoles)[number],
        password: required(flags, "password"),
      });
      return { json: { id }, text: `Created user ${id}` };
    },
  },
  "key create": {
    summary: "Creates an API key and prints it, once.",
    options: { company: requiredText("ID", "the key's company"), name: requiredText("NAME", "what the key is for") },
    run: async ({ ctx }, flags) => {
      const { id, key } = await createApiKey(ctx, { companyId: required(flags, "company"), name: required(flags, "name") });
      return { json: { id, key }, text: `Created API key ${id}. It is shown only this once:\n${key}` };
    },
  },
  "key revoke": {
    summary: "Revokes an API key at once.",
    argument: "ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await revokeApiKey(ctx, id);
      return { json: { id, revoked: true }, text: `Revoked API key ${id}` };
    },
  },
};
