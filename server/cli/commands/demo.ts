import { bulkBatchSize } from "@/server/demo/bulk";
import { seedDemo } from "@/server/demo/seed";
import { historyStepBudget, simulate, simulateLive } from "@/server/demo/simulate";
import { type Command, count, flag, required, requiredText, text } from "../arguments";
import { progressLine } from "../progress";

export const demoCommands: Record<string, Command> = {
  simulate: {
    summary: "Fills a company with two weeks of realistic activity through the domain write path, or keeps producing it live.",
    options: {
      company: requiredText("ID", "the company to fill"),
      interviews: text("N", "active interviews to create first (default 3; 0 uses the company's own)"),
      candidates: text("N", "candidates to simulate (default 50)"),
      seed: text("S", "makes the run reproducible (whole number)"),
      bulk: flag(
        `write in batches of ${bulkBatchSize.toLocaleString("en")} with simpler journeys; chosen anyway when the history would take more than ${historyStepBudget.toLocaleString("en")} steps`,
      ),
      live: flag("keep starting candidates in real time until Ctrl-C, printing each step"),
    },
    run: async ({ ctx }, flags) => {
      const companyId = required(flags, "company");
      const seed = flags.seed === undefined ? undefined : count(flags, "seed", 0);
      if (flags.live) {
        const stop = new AbortController();
        process.once("SIGINT", () => stop.abort());
        process.once("SIGTERM", () => stop.abort());
        process.stderr.write("Producing live activity; Ctrl-C stops.\n");
        let waitingFor: string | null = null;
        const made = await simulateLive(ctx, {
          companyId,
          seed,
          signal: stop.signal,
          onStep: (step) => {
            waitingFor = null;
            process.stderr.write(`${new Date().toLocaleTimeString("en-GB")}  ${step.does}\n`);
          },
          onWait: (reason) => {
            if (reason !== waitingFor) process.stderr.write(`${new Date().toLocaleTimeString("en-GB")}  waiting for the database (${reason})\n`);
            waitingFor = reason;
          },
          onCutOff: (step) =>
            process.stderr.write(
              `${new Date().toLocaleTimeString("en-GB")}  the database went away during "${step.does}"; that candidate's journey stops there\n`,
            ),
        });
        return { json: made, text: `Started ${made.candidates} candidate(s)` };
      }
      const started = performance.now();
      const candidates = count(flags, "candidates", 50);
      const made = await simulate(ctx, {
        companyId,
        interviews: count(flags, "interviews", 3),
        candidates,
        seed,
        bulk: flags.bulk === true,
        onProgress: progressLine("candidates", candidates),
      });
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      return {
        json: { ...made, seconds },
        text: `Simulated ${made.candidates} candidate(s) in ${made.interviews} interview(s), ${made.events} event(s), ${seconds}s (${made.mode})`,
      };
    },
  },
  seed: {
    summary: "Creates the demo company, its users and an API key, once.",
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
