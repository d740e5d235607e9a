import type { CandidateStatus } from "@/db/schema";
import { invalidQuery } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { readCandidatePage } from "@/server/read/candidates";
import { utcDateTime } from "@/server/read/stored-values";
import { type CursorKind, encodeCursor } from "@/server/security/cursors";
import { listCandidatesInput, listCandidatesMeta, listCandidatesOutput } from "./list-candidates.types";
import { cursorPosition, splitList } from "./query-params";

export const listCandidates = apiProcedure
  .meta(listCandidatesMeta)
  .input(listCandidatesInput)
  .output(listCandidatesOutput)
  .query(async ({ ctx, input }) => {
    const companyId = ctx.caller.company.id;
    const kind: CursorKind = input.state === "submitted" ? "candidates:submitted" : "candidates:started";
    if (input.cursor) cursorPosition("cursor", input.cursor, companyId);
    // The schema takes a cursor of either ordering; which one fits depends on `state`.
    if (input.cursor && input.cursor.kind !== kind) {
      throw invalidQuery([{ parameter: "cursor", code: "invalid_cursor", message: `belongs to another state's ordering than state=${input.state}` }]);
    }
    const filters = {
      state: input.state,
      interviewId: input.interview_id,
      statuses: input.status ? (splitList(input.status) as CandidateStatus[]) : undefined,
      submittedAfter: input.submitted_after && utcDateTime(input.submitted_after),
      submittedBefore: input.submitted_before && utcDateTime(input.submitted_before),
    };
    const { candidates, next } = await readCandidatePage(ctx.sql, companyId, filters, input.limit, input.cursor?.position);
    return ok(ctx, { candidates, next_cursor: next ? encodeCursor(kind, companyId, next) : null });
  });
