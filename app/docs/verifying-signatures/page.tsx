import type { Metadata } from "next";
import { CodeBlock, GuidePage } from "../guide-page";
import {
  goNetHttpUsage,
  goStandardLibrary,
  goStandardWebhooks,
  goStripe,
  nodeExpressUsage,
  nodeSampleFile,
  nodeStandardLibrary,
  nodeStandardWebhooks,
  nodeStripe,
  pythonFlaskUsage,
  pythonStandardLibrary,
  pythonStandardWebhooks,
  pythonStripe,
} from "./samples";

export const metadata: Metadata = { title: "Verifying webhook signatures" };

export default function VerifyingSignaturesGuide() {
  return (
    <GuidePage href="/docs/verifying-signatures">
      <p>
        Every webhook message is signed with the webhook&apos;s secret (<code>whsec_…</code>, shown on the webhook&apos;s page in the settings), so your
        receiver can tell that a message comes from us and was not changed or replayed. Checking is optional, and strongly recommended.
      </p>
      <p>
        Each message carries the same signature in two formats: our own <code>Service-Signature</code>, and the{" "}
        <a href="#standard-webhooks">Standard Webhooks</a> headers. Check one of them, whichever your tools support.
      </p>

      <h2>Use the raw body</h2>
      <p>
        The signature covers the body exactly as it was sent. Verify the raw bytes before you parse them: a framework that parses JSON first and encodes it
        again (spacing, key order, escapes) produces a different text, and the check fails. In Express use <code>express.raw</code>, in Flask{" "}
        <code>request.get_data()</code>, in Go the bytes read from <code>r.Body</code>.
      </p>

      <h2>Service-Signature</h2>
      <p>
        The header looks like <code>t=1795261136,v1=5257a869…</code>:
      </p>
      <ul>
        <li>
          <code>t</code> is the time of this try in unix seconds. Reject the message when it differs from your clock by more than 5 minutes (300 seconds): an
          old message replayed by someone else then fails.
        </li>
        <li>
          <code>v1</code> is the hex HMAC-SHA256 of the text <code>&lt;t&gt;.&lt;raw body&gt;</code> (the timestamp, a dot, the body), keyed with the whole
          secret string, <code>whsec_</code> prefix included.
        </li>
        <li>
          During the 24 hours after the secret is replaced there are two <code>v1</code> values, one per secret: accept the message when one of them matches.
        </li>
        <li>
          Compare in constant time (as below), not with <code>==</code>.
        </li>
      </ul>

      <h3>Node.js, standard library only</h3>
      <CodeBlock title={nodeSampleFile} code={nodeStandardLibrary} />
      <CodeBlock title="Express (server.mjs)" code={nodeExpressUsage} />

      <h3>Python, standard library only</h3>
      <CodeBlock title="verify.py" code={pythonStandardLibrary} />
      <CodeBlock title="Flask" code={pythonFlaskUsage} />

      <h3>Go, standard library only</h3>
      <CodeBlock title="webhooks/verify.go" code={goStandardLibrary} />
      <CodeBlock title="net/http" code={goNetHttpUsage} />

      <h3>With Stripe&apos;s libraries</h3>
      <p>
        <code>Service-Signature</code> uses the same scheme as Stripe&apos;s webhooks, so Stripe&apos;s official libraries verify it as it is: pass our header
        value where they expect <code>Stripe-Signature</code>. You need no Stripe account or key for this. Stripe&apos;s checks reject only timestamps that are
        too old, not ones in the future.
      </p>
      <CodeBlock title="Node.js (stripe)" code={nodeStripe} />
      <CodeBlock title="Python (stripe)" code={pythonStripe} />
      <CodeBlock title="Go (stripe-go)" code={goStripe} />

      <h2 id="standard-webhooks">Standard Webhooks</h2>
      <p>
        The same message also carries the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> headers, which many webhook tools and libraries
        check out of the box:
      </p>
      <ul>
        <li>
          <code>webhook-id</code>: the event id (the same as <code>Service-Event-Id</code> and the body&apos;s <code>id</code>).
        </li>
        <li>
          <code>webhook-timestamp</code>: the time of this try in unix seconds (the same as <code>t</code>).
        </li>
        <li>
          <code>webhook-signature</code>: <code>v1,&lt;base64&gt;</code>, the base64 HMAC-SHA256 of{" "}
          <code>&lt;webhook-id&gt;.&lt;webhook-timestamp&gt;.&lt;raw body&gt;</code>, keyed with the bytes that the part of the secret after <code>whsec_</code>{" "}
          decodes to (it is base64). During the 24 hours after the secret is replaced it holds two values separated by a space.
        </li>
      </ul>
      <p>The Standard Webhooks libraries take the whole secret as it is shown, and check the timestamp (5 minutes) and every signature for you:</p>
      <CodeBlock title="Node.js (standardwebhooks)" code={nodeStandardWebhooks} />
      <CodeBlock title="Python (standardwebhooks)" code={pythonStandardWebhooks} />
      <CodeBlock title="Go (standard-webhooks)" code={goStandardWebhooks} />

      <h2>Trying it</h2>
      <p>
        Send a sample from the webhook&apos;s page in the settings: it is signed like every other message, so it tests your check end to end. The delivery log
        shows what your receiver answered.
      </p>
    </GuidePage>
  );
}
