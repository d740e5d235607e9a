import { userRoles } from "@/db/schema";
import { createApiKey, createCompany, createUser, revokeApiKey, setCompanySuspended } from "@/server/domain/accounts";
import { type Command, positional, required, requiredText, UsageError } from "../arguments";

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
