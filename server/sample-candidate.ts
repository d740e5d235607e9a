/**
 * The made-up candidate of every sample webhook message. The sample body
 * (server/webhooks/admin/sample.ts), the API's answer for its id, the delivery log
 * and its candidate page (app/candidates/[id]) all name it, so it lives apart
 * from each of them.
 */

/** Its dashboard_url leads to a page that says it is a sample. */
export const sampleCandidateId = "cand_sample";
/** The log names it too. */
export const sampleCandidateName = "Sam Sample";
