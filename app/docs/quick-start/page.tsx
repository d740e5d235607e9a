import type { Metadata } from "next";
import { apiBase } from "../api-base";
import { CodeBlock, GuidePage } from "../guide-page";
import { clientInstall, listCandidatesScript, listenCommand, meWithCurl } from "./samples";

export const metadata: Metadata = { title: "Quick start" };

/** Where the guide's examples forward to: a receiver on the reader's own machine. */
export const exampleReceiver = "http://localhost:4000/webhooks";

export default function QuickStartGuide() {
  return (
    <GuidePage href="/docs/quick-start">
      <p>
        From nothing to a working integration in five steps: a key, a first call, the TypeScript client, a receiver tested on your own machine, then a real
        webhook.
      </p>

      <h2 id="create-a-key">1. Create an API key</h2>
      <p>
        A company admin creates keys in the settings, under <a href="/settings/api-keys">API keys</a>: give it a name that says who will use it, then copy the
        key (it starts with <code>ivk_</code>); it is shown only once. Keep it in your secret store, and for the steps below in your shell:
      </p>
      <CodeBlock title="Shell" code={'export INTERVIEW_API_KEY="ivk_…"'} />
      <p>
        More in <a href="/docs/authentication">Authentication and keys</a>.
      </p>

      <h2 id="first-call">2. Call the API with curl</h2>
      <p>
        <code>GET /v1/me</code> names the key and its company: the quickest check that the key works.
      </p>
      <CodeBlock title="Shell" code={meWithCurl(apiBase())} />
      <p>
        Every answer has the same envelope: <code>{"{ success, data, timestamp, trace_id }"}</code>, or on an error{" "}
        <code>{"{ success: false, error, message, details, … }"}</code> (see <a href="/docs/errors">Errors</a>).
      </p>

      <h2 id="client">3. List candidates with the TypeScript client</h2>
      <p>
        <code>@interview-api/client</code> is a typed client for Node.js 20.18 or newer: every endpoint, paging, an events follower, retries after 429, webhook
        verification and the <code>listen</code> command below. It ships compiled JavaScript with its type declarations, so plain <code>node</code>, TypeScript
        and bundlers all take it. It is not on the public npm registry: pack it from the Interview API repository and install the file.
      </p>
      <CodeBlock title="Install" code={clientInstall} />
      <CodeBlock title="list-candidates.mjs" code={listCandidatesScript(apiBase())} />
      <p>
        <code>list</code> follows <code>next_cursor</code> page by page (see <a href="/docs/pagination">Pagination and cursors</a>). A refusal throws an{" "}
        <code>ApiError</code> with the envelope&apos;s <code>error</code>, <code>message</code>, <code>trace_id</code> and a 422&apos;s <code>problems</code>.
      </p>

      <h2 id="listen">4. Test a receiver on your machine with listen</h2>
      <p>
        Webhooks go only to public <code>https://</code> addresses. While you build your receiver, <code>interview-api listen</code> (in the client package)
        reads the event history with your key and POSTs each new event to a local address, signed and headed exactly like a real delivery:
      </p>
      <CodeBlock title="Shell" code={listenCommand(apiBase(), exampleReceiver)} />
      <ul>
        <li>
          It prints the signing secret it uses (<code>whsec_…</code>): verify with it as you will with the webhook&apos;s own secret (see{" "}
          <a href="/docs/verifying-signatures">Verifying webhook signatures</a>).
        </li>
        <li>
          It starts from now; <code>--from-start</code> replays the kept 30 days, <code>--events candidate.ready</code> forwards one type.
        </li>
        <li>
          An event your receiver does not accept (no 2xx, or no connection) is tried again, and nothing after it is sent until it passes: stop and restart{" "}
          <code>listen</code> and it starts again from that event. A 4xx answer&apos;s body is printed, so your receiver&apos;s own error says what went wrong.
        </li>
      </ul>

      <h2 id="add-a-webhook">5. Add a webhook</h2>
      <p>
        Once your receiver runs on a public <code>https://</code> address, an admin adds it under{" "}
        <a href="/settings/webhooks/new">Settings → Webhooks → New webhook</a>, choosing the event types and interviews. Its page shows the signing secret, a
        delivery log with every attempt, and a button that sends a sample event. Each message is retried for up to about three days until your receiver answers
        with a 2xx (see <a href="/docs/webhooks">Webhooks</a>).
      </p>
    </GuidePage>
  );
}
