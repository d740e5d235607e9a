import { userRoles } from "@/db/schema";
import { createApiKey, createCompany, createUser, revokeApiKey, setCompanySuspended } from "@/server/domain/accounts";
import { type Command, positional, required, text, UsageError } from "../arguments";

export const accountCommands: Record<string, Command> = {
  "company create": {
    usage: "company create --name NAME",
    options: { name: text },
    run: async ({ ctx }, flags) => {
      const { id } = await createCompany(ctx, { name: required(flags, "name") });
      return { json: { id }, text: `Created company ${id}` };
    },
  },
  "company suspend": {
    usage: "company suspend ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await setCompanySuspended(ctx, id, true);
      return { json: { id, suspended: true }, text: `Suspended company ${id}` };
    },
  },
  "company unsuspend": {
    usage: "company unsuspend ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await setCompanySuspended(ctx, id, false);
      return { json: { id, suspended: false }, text: `Company ${id} is active again` };
    },
  },
  "user create": {
    usage: `user create --company ID --email EMAIL --name NAME --role ${userRoles.join("|")} --password PASSWORD`,
    options: { company: text, email: text, name: text, role: text, password: text },
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
    usage: "key create --company ID --name NAME",
    options: { company: text, name: text },
    run: async ({ ctx }, flags) => {
      const { id, key } = await createApiKey(ctx, { companyId: required(flags, "company"), name: required(flags, "name") });
      return { json: { id, key }, text: `Created API key ${id}. It is shown only this once:\n${key}` };
    },
  },
  "key revoke": {
    usage: "key revoke ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await revokeApiKey(ctx, id);
      return { json: { id, revoked: true }, text: `Revoked API key ${id}` };
    },
  },
};
