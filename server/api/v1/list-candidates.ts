import type { CandidateStatus } from "@/db/schema";
import { invalidQuery } from "@/server/api/errors";
import { apiProcedure, okWithList } from "@/server/api/trpc";
import { type CandidatePageJson, candidatePageJson, candidatePageNext } from "@/server/read/candidates";
import { utcDateTime } from "@/server/read/stored-values";
import { type CursorKind, encodeCursor } from "@/server/security/cursors";
import { listCandidatesInput, listCandidatesMeta, listCandidatesOutput } from "./list-candidates.types";
import { cursorPosition, splitList } from "./query-params";

export const listCandidates = apiProcedure
  .meta(listCandidatesMeta)
  .input(listCandidatesInput)
  .output(listCandidatesOutput)
  .query(async ({ ctx, input }) => {
    const kind: CursorKind = input.state === "submitted" ? "candidates:submitted" : "candidates:started";
    // The schema takes a cursor of either ordering; which one fits depends on `state`.
    const wrongOrdering = input.cursor && input.cursor.kind !== kind;
    const filters = {
      state: input.state,
      interviewId: input.interview_id,
      statuses: input.status ? (splitList(input.status) as CandidateStatus[]) : undefined,
      submittedAfter: input.submitted_after && utcDateTime(input.submitted_after),
      submittedBefore: input.submitted_before && utcDateTime(input.submitted_before),
    };
    // Admission and the page (as JSON text) in one statement; the page is read
    // only for the cursor's company, which must be the caller's.
    const { caller, page } = wrongOrdering
      ? { caller: await ctx.admission.admit(), page: null }
      : await ctx.admission.admitWith<CandidatePageJson>((company) => candidatePageJson(ctx.sql, company, filters, input.limit, input.cursor?.position), {
          onlyForCompany: input.cursor?.companyId,
        });
    const companyId = caller.company.id;
    if (input.cursor) cursorPosition("cursor", input.cursor, companyId);
    if (wrongOrdering || !page) {
      throw invalidQuery([{ parameter: "cursor", code: "invalid_cursor", message: `belongs to another state's ordering than state=${input.state}` }]);
    }
    const next = candidatePageNext(page);
    return okWithList(ctx, "candidates", page.items, { next_cursor: next ? encodeCursor(kind, companyId, next) : null });
  });
