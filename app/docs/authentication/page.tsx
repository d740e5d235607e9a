import type { Metadata } from "next";
import { apiBase } from "../api-base";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";

export const metadata: Metadata = { title: "Authentication and keys" };

export default function AuthenticationGuide() {
  const me = `curl -H "Authorization: Bearer $API_KEY" ${apiBase()}/me`;
  return (
    <GuidePage href="/docs/authentication">
      <p>
        Every request to the API carries an API key. A key reads all of its company&apos;s interview and candidate data, and nothing of any other company: an id
        that belongs to another company answers 404, as if it did not exist.
      </p>

      <h2>Getting a key</h2>
      <ul>
        <li>
          A company admin creates keys in the product&apos;s settings, under <a href="/settings/api-keys">API keys</a>. Each key has a name, so you can tell
          later which tool uses it.
        </li>
        <li>
          The key (it starts with <code>ivk_</code>) is shown once, when it is created. Copy it into your secret store then; it cannot be shown again.
        </li>
        <li>Keys belong on a server or inside an automation tool, never in a browser, an app or a repository.</li>
      </ul>

      <h2>Sending the key</h2>
      <p>
        Send the key in the <code>Authorization</code> header, with the <code>Bearer</code> scheme (the scheme&apos;s case does not matter). Check a key with{" "}
        <code>GET /v1/me</code>, which names its company and the key:
      </p>
      <CodeBlock title="Request" code={me} />
      <CodeBlock
        title="Response"
        code={`{
  "success": true,
  "data": {
    "company": { "id": "co_…", "name": "Acme" },
    "api_key": { "id": "key_…", "name": "ATS sync" }
  },
  "timestamp": 1795261136,
  "trace_id": "…"
}`}
      />
      <p>
        Never put a key in the address. A request with a key in its query string (<code>?api_key=…</code>, <code>?token=…</code> or under any other name) is
        refused with 401 and the key is not used, even when it is valid, because addresses end up in logs and browser histories.
      </p>

      <h2>What needs a key</h2>
      <ul>
        <li>
          Every <code>/v1</code> endpoint, including the links inside objects: <code>documents[].url</code>, <code>ai_interview.recording.url</code> and{" "}
          <code>ai_interview.transcript_url</code> point to the API.
        </li>
        <li>
          Not the API description, <a href="/v1/openapi.json">/v1/openapi.json</a>, and not the <code>download_url</code> links that the file and recording
          endpoints hand out, which work for 15 minutes without a key (see <a href="/docs/downloads">Downloads</a>).
        </li>
      </ul>

      <h2>Revoking a key</h2>
      <p>
        Revoke a key in the same settings page. It stops working on the very next request, on every server: nothing about keys is cached. To replace a key
        without downtime, create the new one, switch your tool to it, then revoke the old one.
      </p>

      <h2>When a key is refused</h2>
      <GuideTable label="When a key is refused">
        <thead>
          <tr>
            <th>Status</th>
            <th>
              <code>error</code>
            </th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>401</td>
            <td>
              <code>auth_error</code>
            </td>
            <td>the header is missing or malformed, the key is unknown or revoked, or a key was put in the address</td>
          </tr>
          <tr>
            <td>403</td>
            <td>
              <code>permission_denied</code>
            </td>
            <td>the company&apos;s account is suspended: contact the service operator</td>
          </tr>
        </tbody>
      </GuideTable>
      <p>
        Both come in the error envelope described in <a href="/docs/errors">Errors</a>.
      </p>
    </GuidePage>
  );
}
