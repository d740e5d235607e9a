import type { Metadata } from "next";
import { env } from "@/server/env";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";

export const metadata: Metadata = { title: "Webhooks" };

const headers = [
  { name: "Content-Type", value: "application/json" },
  { name: "User-Agent", value: "InterviewAPI-Webhooks/1.0 (+<service address>)" },
  { name: "Service-Event-Id", value: "the event id, equal to the body's id; the same on every retry and resend" },
  { name: "Service-Event-Type", value: "the event type, equal to the body's type" },
  { name: "Service-Delivery-Attempt", value: "1 for the first try, 2 for the first retry, and so on, at most 9; a resend counts from 1 again" },
  { name: "Service-Signature", value: "t=<unix seconds>,v1=<hex HMAC-SHA256>; two v1 values during the 24 hours after the secret is replaced" },
  { name: "webhook-id", value: "Standard Webhooks: the event id again (the same as Service-Event-Id)" },
  { name: "webhook-timestamp", value: "Standard Webhooks: unix seconds of this try (the same as t)" },
  {
    name: "webhook-signature",
    value: "Standard Webhooks: v1,<base64 HMAC-SHA256>; two values separated by a space during the 24 hours after the secret is replaced",
  },
];

/** Each retry and its wait after the try before it. */
const retries = [
  { attempt: 2, wait: "1 minute" },
  { attempt: 3, wait: "5 minutes" },
  { attempt: 4, wait: "30 minutes" },
  { attempt: 5, wait: "2 hours" },
  { attempt: 6, wait: "6 hours" },
  { attempt: 7, wait: "12 hours" },
  { attempt: 8, wait: "24 hours" },
  { attempt: 9, wait: "24 hours" },
];

const request = `POST /your/webhook HTTP/1.1
Content-Type: application/json
User-Agent: InterviewAPI-Webhooks/1.0 (+<service address>)
Service-Event-Id: evt_4Jx…
Service-Event-Type: candidate.status_changed
Service-Delivery-Attempt: 1
Service-Signature: t=1795261136,v1=5257a869…
webhook-id: evt_4Jx…
webhook-timestamp: 1795261136
webhook-signature: v1,K5oZfzN9…

{
  "id": "evt_4Jx…",
  "type": "candidate.status_changed",
  "created_at": "2026-03-02T10:15:00.000Z",
  "api_version": "v1",
  "test": false,
  "change": { "from": "needs_review", "to": "shortlisted", "by": { "type": "team", "name": "Ada Admin" } },
  "candidate": { "id": "cand_…", "status": "shortlisted", "result": { … }, … }
}`;

export default function WebhooksGuide() {
  return (
    <GuidePage href="/docs/webhooks">
      <p>
        A webhook sends each of your company&apos;s events to an address of yours as it happens: a signed HTTP <code>POST</code> whose JSON body is the event,
        exactly as <code>GET /v1/events</code> shows it (see <a href="/docs/event-history">The event history</a> for the event types).
      </p>

      <h2>Setting one up</h2>
      <ul>
        <li>
          Company admins add webhooks in the product&apos;s settings, under <a href="/settings/webhooks">Webhooks</a>: at most 10 per company.
        </li>
        <li>
          The address must start with <code>https://</code> and use a public host name. Messages are never sent to private, local or internal network addresses,
          checked again at every connection.
        </li>
        <li>Choose the event types, and all interviews (including ones created later) or selected ones.</li>
        <li>
          Each webhook has a signing secret (<code>whsec_…</code>) on its page, for <a href="/docs/verifying-signatures">verifying signatures</a>.
        </li>
        <li>
          <strong>Send a sample</strong> to try your receiver: a made-up candidate (&quot;Sam Sample&quot;) with the chosen interview&apos;s real questions, as
          a <code>candidate.ready</code> event with <code>test: true</code>. Samples never appear in the event history.
        </li>
        <li>The delivery log on the webhook&apos;s page shows the last 30 days of messages and what your address answered.</li>
      </ul>

      <h2>The request</h2>
      <CodeBlock title="HTTP" code={request.replace("<service address>", env.APP_URL)} />
      <GuideTable label="The request headers">
        <thead>
          <tr>
            <th>Header</th>
            <th>Value</th>
          </tr>
        </thead>
        <tbody>
          {headers.map((header) => (
            <tr key={header.name}>
              <td>
                <code>{header.name}</code>
              </td>
              <td>{header.value}</td>
            </tr>
          ))}
        </tbody>
      </GuideTable>
      <p>
        Both signatures cover the same body with the same secret, in two formats: check whichever your tools support. The body&apos;s <code>candidate</code>{" "}
        does not include the transcript; fetch it from the API when you need it.
      </p>

      <h2 id="custom-headers">Custom headers</h2>
      <p>
        When your receiver checks a header of its own rather than the signature (an n8n Webhook node with Header Auth, a Make custom webhook with an API key, an{" "}
        <code>Authorization: Basic …</code> in front of a gateway), an admin can add up to 5 headers to the webhook, on its edit page or with{" "}
        <code>npm run cli -- webhook update ID --headers-file FILE</code> (one <code>Name: value</code> per line).
      </p>
      <ul>
        <li>
          They are sent with every message: each try and retry, resends, samples and past events, beside the headers above. A change applies to the messages
          still waiting at once: their next try goes now, with the new headers.
        </li>
        <li>
          Names are HTTP header names. These are refused, each with the reason: <code>Host</code>, <code>Content-Length</code>, <code>Content-Type</code>,{" "}
          <code>Transfer-Encoding</code>, <code>Connection</code>, <code>User-Agent</code>, and names starting with <code>Service-</code>, <code>webhook-</code>
          , <code>Proxy-</code> or <code>Sec-</code> (ours, the signature&apos;s, or meant for the connection). Values are at most 1,000 characters, without
          control characters.
        </li>
        <li>
          Values are secrets, like the signing secret: kept encrypted, shown once when saved, then masked (admins can reveal them), masked in the delivery log,
          and never logged. Team members see neither names nor values.
        </li>
      </ul>

      <h2 id="conditions">Conditions</h2>
      <p>Beside its event types and interviews, a webhook can be sent only the events it acts on:</p>
      <ul>
        <li>
          <code>candidate.status_changed</code> only when the new status (<code>change.to</code>) is one of those chosen, for example only Shortlisted;
        </li>
        <li>
          <code>candidate.scored</code> and <code>candidate.ready</code> only when the candidate&apos;s score is at least a number (0 to 100), or its
          recommendation is one of those chosen. A candidate without a score matches neither.
        </li>
      </ul>
      <p>
        Conditions are checked when an event becomes messages, seconds after it happens: an event that does not match is never sent to the webhook and holds
        back none of its later messages. Sending past events applies them too. Samples ignore them: a sample is always sent. The webhook&apos;s page says its
        conditions in words. With the command line: <code>--status-to shortlisted,passed</code>, <code>--min-score 70</code>,{" "}
        <code>--recommendations strongly_recommend,recommended</code> (an empty value removes one).
      </p>

      <h2>Answering</h2>
      <p>
        Answer with any <code>2xx</code> status within 10 seconds. Anything else counts as a failure: another status, a timeout, a connection error, and a
        redirect too (redirects are not followed). Answer first and do the work afterwards: store the message, reply <code>204</code>, then process it.
      </p>

      <h2>Retries</h2>
      <p>After a failure the message is tried again, each time this long after the failed try:</p>
      <ul>
        {retries.map((retry) => (
          <li key={retry.attempt}>
            {retry.wait} later: <code>Service-Delivery-Attempt: {retry.attempt}</code>
          </li>
        ))}
      </ul>
      <p>
        That is 9 tries over about 3 days. After a day of failures your company&apos;s admins get an email. After 3 days without a success the webhook is turned
        off, its waiting messages are marked failed, and the admins get a second email. Once your receiver works again, an admin turns the webhook back on; it
        receives new events from then on. Catch up on what was missed from <code>GET /v1/events</code> (30 days), or resend messages from the delivery log.
      </p>
      <p>When the webhook&apos;s address is changed, its waiting messages go to the new address straight away.</p>

      <h2>Order, repeats and the latest data</h2>
      <ul>
        <li>
          <strong>Order per candidate.</strong> Messages about one candidate arrive in the order the events happened. A message waiting for a retry holds back
          that candidate&apos;s later messages to the same address; other candidates are not held back. Across candidates, there is no order.
        </li>
        <li>
          <strong>Repeats.</strong> The same message may arrive more than once (a timeout after you processed it, a resend). Its id is unchanged (
          <code>id</code> = <code>Service-Event-Id</code> = <code>webhook-id</code>): remember the ids you handled and ignore repeats.
        </li>
        <li>
          <strong>The latest data.</strong> <code>candidate</code> is the candidate&apos;s latest data when the message is sent, at every try, not a copy from
          the time of the event. A late or repeated message therefore never brings back older data: store what it carries. What changed at the time is kept in{" "}
          <code>change</code> (for <code>candidate.status_changed</code>).
        </li>
        <li>
          New event types may be added, but a webhook receives only the types chosen for it. Ignore fields you do not know: new ones may be added at any time.
        </li>
      </ul>

      <h2>Secrets and rotation</h2>
      <p>
        An admin can replace a webhook&apos;s secret on its page. For the next 24 hours messages are signed with both the new and the old secret (two{" "}
        <code>v1</code> values in each signature header), so you can switch your receiver to the new secret at any time in that day without rejecting a message.
      </p>
    </GuidePage>
  );
}
