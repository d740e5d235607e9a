/**
 * The CLI's commands. Each takes parsed flags and positionals and returns the
 * JSON object that `--json` prints, plus a line for people.
 */
import { userRoles } from "@/db/schema";
import { createApiKey, createCompany, createUser, revokeApiKey, setCompanySuspended } from "@/server/domain/accounts";
import type { DomainContext } from "@/server/domain/context";
import { seedDemo } from "@/server/demo/seed";
import { simulate, simulateLive } from "@/server/demo/simulate";

export type Flags = Record<string, string | boolean | undefined>;
export type Output = { json: Record<string, unknown>; text: string };
export type Command = {
  usage: string;
  options: Record<string, { type: "string" | "boolean" }>;
  run: (ctx: DomainContext, flags: Flags, args: string[]) => Promise<Output>;
};

export class UsageError extends Error {}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

function positional(args: string[], what: string): string {
  const [value] = args;
  if (!value) throw new UsageError(`${what} is required`);
  return value;
}

function count(flags: Flags, name: string, fallback: number): number {
  const value = flags[name];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (typeof value !== "string" || !Number.isInteger(number) || number < 0) {
    throw new UsageError(`--${name} must be a whole number, got ${String(value)}`);
  }
  return number;
}

const text = { type: "string" } as const;
const flag = { type: "boolean" } as const;

export const commands: Record<string, Command> = {
  "company create": {
    usage: "company create --name NAME",
    options: { name: text },
    run: async (ctx, flags) => {
      const { id } = await createCompany(ctx, { name: required(flags, "name") });
      return { json: { id }, text: `Created company ${id}` };
    },
  },
  "company suspend": {
    usage: "company suspend ID",
    options: {},
    run: async (ctx, _flags, args) => {
      const id = positional(args, "ID");
      await setCompanySuspended(ctx, id, true);
      return { json: { id, suspended: true }, text: `Suspended company ${id}` };
    },
  },
  "company unsuspend": {
    usage: "company unsuspend ID",
    options: {},
    run: async (ctx, _flags, args) => {
      const id = positional(args, "ID");
      await setCompanySuspended(ctx, id, false);
      return { json: { id, suspended: false }, text: `Company ${id} is active again` };
    },
  },
  "user create": {
    usage: `user create --company ID --email EMAIL --name NAME --role ${userRoles.join("|")} --password PASSWORD`,
    options: { company: text, email: text, name: text, role: text, password: text },
    run: async (ctx, flags) => {
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
    usage: "key create --company ID --name NAME",
    options: { company: text, name: text },
    run: async (ctx, flags) => {
      const { id, key } = await createApiKey(ctx, { companyId: required(flags, "company"), name: required(flags, "name") });
      return { json: { id, key }, text: `Created API key ${id}. It is shown only this once:\n${key}` };
    },
  },
  "key revoke": {
    usage: "key revoke ID",
    options: {},
    run: async (ctx, _flags, args) => {
      const id = positional(args, "ID");
      await revokeApiKey(ctx, id);
      return { json: { id, revoked: true }, text: `Revoked API key ${id}` };
    },
  },
  simulate: {
    usage: "simulate --company ID [--interviews N] [--candidates N] [--seed S] [--bulk] [--live]",
    options: { company: text, interviews: text, candidates: text, seed: text, bulk: flag, live: flag },
    run: async (ctx, flags) => {
      const companyId = required(flags, "company");
      const seed = flags.seed === undefined ? undefined : count(flags, "seed", 0);
      if (flags.live) {
        const stop = new AbortController();
        process.once("SIGINT", () => stop.abort());
        process.once("SIGTERM", () => stop.abort());
        process.stderr.write("Producing live activity; Ctrl-C stops.\n");
        const made = await simulateLive(ctx, { companyId, seed, signal: stop.signal });
        return { json: made, text: `Started ${made.candidates} candidate(s)` };
      }
      const started = performance.now();
      const made = await simulate(ctx, {
        companyId,
        interviews: count(flags, "interviews", 3),
        candidates: count(flags, "candidates", 50),
        seed,
        bulk: flags.bulk === true,
      });
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      return {
        json: { ...made, seconds },
        text: `Simulated ${made.candidates} candidate(s) in ${made.interviews} interview(s), ${made.events} event(s), ${seconds}s (${made.mode})`,
      };
    },
  },
  seed: {
    usage: "seed",
    options: {},
    run: async (ctx) => {
      const result = await seedDemo(ctx);
      return {
        json: result,
        text: result.created
          ? `Created the demo company ${result.company_id}\nadmin ${result.admin.email} / ${result.admin.password}\nmember ${result.member.email} / ${result.member.password}\nAPI key ${result.api_key}`
          : `The demo company ${result.company_id} already exists`,
      };
    },
  },
};
