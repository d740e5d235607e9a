/** The delivery log's one search field (zod only, so the page's form checks it as the server does). */
import { z } from "zod";
import { holdsNoNul } from "@/server/read/stored-values";

/** The id prefixes the search tells apart (server/ids.ts). */
export const logSearchPrefixes = { event: "evt_", candidate: "cand_" } as const;

export const logSearchProblem = "Search by the start of an event id (evt_…) or of a candidate id (cand_…).";

/** Whether the text is an event id or a candidate id (or the start of one) is told by its prefix. */
export const logSearch = z
  .string()
  .trim()
  .max(64, "An id is at most 64 characters: paste the id or its start.")
  .refine(holdsNoNul, logSearchProblem)
  .transform((text, ctx) => {
    const field = (Object.keys(logSearchPrefixes) as Array<keyof typeof logSearchPrefixes>).find((key) => text.startsWith(logSearchPrefixes[key]));
    if (!field) {
      ctx.addIssue({ code: "custom", message: logSearchProblem });
      return z.NEVER;
    }
    return { field, prefix: text };
  });
