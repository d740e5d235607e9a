import type { Metadata } from "next";
import { apiBase } from "../api-base";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";
import { pagingLoop } from "./samples";

export const metadata: Metadata = { title: "Pagination and cursors" };

export default function PaginationGuide() {
  return (
    <GuidePage href="/docs/pagination">
      <p>
        <code>GET /v1/interviews</code> and <code>GET /v1/candidates</code> return their lists a page at a time. Each page carries <code>next_cursor</code>:
        send it back as <code>cursor</code> to get the next page, until it is <code>null</code>. (The event history pages with <code>after</code> instead; see{" "}
        <a href="/docs/event-history">The event history</a>.)
      </p>

      <h2>Page sizes</h2>
      <GuideTable label="Page sizes">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th>
              <code>limit</code>
            </th>
            <th>Order</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>GET /v1/interviews</code>
            </td>
            <td>1 to 100, default 25</td>
            <td>newest first; deleted interviews are never listed</td>
          </tr>
          <tr>
            <td>
              <code>GET /v1/candidates</code>
            </td>
            <td>1 to 25, default 25</td>
            <td>
              with <code>state=submitted</code> (the default), most recent submission first; with <code>state=in_progress</code> or <code>state=all</code>,
              newest started first
            </td>
          </tr>
        </tbody>
      </GuideTable>
      <p>
        <code>limit</code> is plain decimal digits: <code>25</code> and <code>025</code> are fine, <code>2.5e1</code> or <code>+25</code> are refused with a 422
        (see <a href="/docs/errors">Errors</a>).
      </p>

      <h2>Following the cursor</h2>
      <ul>
        <li>
          Pass <code>next_cursor</code> back unchanged, with the same filters as the first page. A cursor is opaque and sealed: do not build or edit one.
        </li>
        <li>
          The order does not change while you page, so following <code>next_cursor</code> skips no one. Candidates who submit (or start) while you page sort
          before your first page, so this pass does not include them; the next pass, or the event history, does.
        </li>
        <li>
          A cursor belongs to one list, one ordering and your company. One that is altered, malformed or from another list answers 422 with{" "}
          <code>invalid_cursor</code>. The candidate orderings differ: a cursor of <code>state=submitted</code> is refused with <code>state=all</code>, and the
          other way round.
        </li>
      </ul>
      <CodeBlock title="JavaScript: every candidate, page by page" code={pagingLoop(apiBase())} />

      <h2>Filtering candidates</h2>
      <ul>
        <li>
          <code>state</code>: <code>submitted</code> (finished every step; the default), <code>in_progress</code> (still taking it) or <code>all</code>{" "}
          (including cancelled and unfinished attempts).
        </li>
        <li>
          <code>status</code>: one or more candidate statuses separated by commas, for example <code>status=passed,shortlisted</code>.
        </li>
        <li>
          <code>interview_id</code>: one interview&apos;s candidates. An unknown id simply matches nobody.
        </li>
        <li>
          <code>submitted_after</code> (at or after) and <code>submitted_before</code> (strictly before): RFC 3339 date-times with an offset, such as{" "}
          <code>2026-03-01T00:00:00Z</code> or <code>2026-03-01T09:00:00+09:00</code>. Encode <code>+</code> as <code>%2B</code> in a URL.
        </li>
      </ul>
      <p>
        Unknown query parameters are ignored. Previews taken by your team members are never listed. A retake is a separate candidate with <code>attempt</code> 2
        (or more), so one person may appear more than once.
      </p>

      <h2>Keeping a copy up to date</h2>
      <p>
        Paging through every candidate regularly is slow and uses up your rate limit. Read everything once, then follow the event history (or receive webhooks)
        to hear about changes.
      </p>
    </GuidePage>
  );
}
