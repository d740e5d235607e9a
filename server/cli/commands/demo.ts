import { seedDemo } from "@/server/demo/seed";
import { simulate, simulateLive } from "@/server/demo/simulate";
import { type Command, count, flag, required, text } from "../arguments";

export const demoCommands: Record<string, Command> = {
  simulate: {
    usage: "simulate --company ID [--interviews N] [--candidates N] [--seed S] [--bulk] [--live]",
    options: { company: text, interviews: text, candidates: text, seed: text, bulk: flag, live: flag },
    run: async ({ ctx }, flags) => {
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
    run: async ({ ctx }) => {
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
