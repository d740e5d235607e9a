import type { Metadata } from "next";
import { apiBase } from "../api-base";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";
import { catchUpLoop } from "./samples";

export const metadata: Metadata = { title: "The event history" };

export default function EventHistoryGuide() {
  return (
    <GuidePage href="/docs/event-history">
      <p>
        <code>GET /v1/events</code> is the change history of your company&apos;s candidates: the same events that webhooks deliver, oldest first, kept for 30
        days. Read it to catch up after an outage, to back up your webhook receiver, or instead of webhooks when you would rather poll.
      </p>

      <h2>The events</h2>
      <GuideTable label="The events">
        <thead>
          <tr>
            <th>
              <code>type</code>
            </th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>candidate.submitted</code>
            </td>
            <td>once per attempt, when the candidate has finished every step</td>
          </tr>
          <tr>
            <td>
              <code>candidate.scored</code>
            </td>
            <td>once per attempt, when the AI score is saved; never before the submission, and not at all when the interview could not be scored</td>
          </tr>
          <tr>
            <td>
              <code>candidate.ready</code>
            </td>
            <td>
              once per attempt, when the result is final (<code>result.state</code> is <code>complete</code>, <code>incomplete</code> or{" "}
              <code>not_applicable</code>); afterwards only status changes follow
            </td>
          </tr>
          <tr>
            <td>
              <code>candidate.status_changed</code>
            </td>
            <td>
              on every status change after submission, by the AI or your team; <code>change</code> holds <code>from</code>, <code>to</code> and <code>by</code>
            </td>
          </tr>
        </tbody>
      </GuideTable>
      <ul>
        <li>Nothing is recorded before a candidate submits, and nothing for previews taken by your team members.</li>
        <li>
          Events of one change come in the order <code>submitted</code>, <code>scored</code>, <code>ready</code>, <code>status_changed</code>.
        </li>
        <li>
          <code>candidate</code> is the candidate&apos;s <strong>latest</strong> data when you read it, not a copy from the time of the event: an old{" "}
          <code>candidate.submitted</code> may already show the final result. What changed at the time is kept in <code>change</code>.
        </li>
        <li>
          New event types may be added at any time and appear in the history without a <code>type</code> filter: skip types you do not know.
        </li>
      </ul>

      <h2>Reading it: store next_cursor</h2>
      <ol>
        <li>
          The first time, call <code>GET /v1/events</code> without <code>after</code>: it starts at the oldest event kept.
        </li>
        <li>
          Every answer carries <code>next_cursor</code>, even when it has no events. Handle the events, then store <code>next_cursor</code>.
        </li>
        <li>
          Next time, send it as <code>after</code>: you receive only events that came later.
        </li>
        <li>
          <code>has_more: true</code> means more events are waiting now: ask again straight away. <code>has_more: false</code> means you are up to date: wait a
          little (say a minute) before asking again.
        </li>
      </ol>
      <p>
        Filters: <code>type</code> (one or more event types separated by commas), <code>interview_id</code> and <code>limit</code> (1 to 25, default 25). Keep
        the same filters for every call that uses a cursor. With a filter, <code>next_cursor</code> still moves past the events that did not match, so they are
        not scanned again.
      </p>
      <CodeBlock title="JavaScript: catch up, then run again later" code={catchUpLoop(apiBase())} />

      <h2>The no-skip guarantee</h2>
      <p>
        Following <code>next_cursor</code> never skips an event. An event appears in the history only once nothing can appear before it any more, so a cursor
        never moves past an event that shows up later. The price is a short delay: an event normally appears within seconds, and always within about a minute.
      </p>
      <p>
        Store the cursor only after you have handled its page. If your process stops in between, you read that page again: handle repeats by the event{" "}
        <code>id</code>, which never changes (the same id comes with the webhook message of that event).
      </p>

      <h2>The 30-day window</h2>
      <p>
        Events are kept for 30 days, then deleted. Read the history at least every few days: a cursor left unused for longer than 30 days still works, but the
        events that expired in the meantime are gone. If that happens, or if you lose your cursor, read the candidates you need from{" "}
        <code>GET /v1/candidates</code> (see <a href="/docs/pagination">Pagination and cursors</a>) and start the history again without <code>after</code>.
      </p>
    </GuidePage>
  );
}
