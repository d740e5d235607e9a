import { ListenError, listenCommand, listenOptions } from "@interview-api/client";
import { type Flags, type StandaloneCommand, UsageError } from "../arguments";

/** `listen` is the client package's (so its own bin runs the same code); this only gives it our command line's usage errors. */
export const listenCommands: Record<string, StandaloneCommand> = {
  listen: {
    summary:
      "Follows GET /v1/events (from now, where the last run stopped, or --from-start) and POSTs each event, signed like a webhook delivery, to a local address until Ctrl-C; prints the signing secret, then one line per event.",
    jsonOutput: "print one JSON object per line on stdout: the start (with the secret), each event, the summary",
    standalone: true,
    options: listenOptions,
    run: async (flags: Flags) => {
      try {
        return await listenCommand(flags, {
          out: (line) => process.stdout.write(`${line}\n`),
          err: (line) => process.stderr.write(`${line}\n`),
        });
      } catch (error) {
        throw error instanceof ListenError && error.code === "usage" ? new UsageError(error.message) : error;
      }
    },
  },
};
