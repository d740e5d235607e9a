import type { Metadata } from "next";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";
import { validationExample } from "./samples";

export const metadata: Metadata = { title: "Errors" };

const codes = [
  { code: "validation_error", status: "422", when: "a query parameter is not valid; details.problems lists each problem", action: "fix the query" },
  {
    code: "not_found",
    status: "404",
    when: "nothing with this id in your company, an unknown path under /v1, or a recording that cannot be downloaded",
    action: "check the id",
  },
  {
    code: "auth_error",
    status: "401",
    when: "the API key is missing, malformed, unknown or revoked, or was sent in the address",
    action: "check the header and the key",
  },
  {
    code: "permission_denied",
    status: "403 (405 for a method other than GET)",
    when: "your company's account is suspended; a download link expired or was altered; the API is read-only (405, with Allow: GET)",
    action: "contact the service operator; ask the API for a new download link; use GET",
  },
  { code: "rate_limited", status: "429", when: "too many requests", action: "wait the number of seconds in Retry-After, then retry" },
  { code: "internal_error", status: "500", when: "a fault on our side", action: "retry later; quote the trace_id if it persists" },
  { code: "external_service_error", status: "502", when: "reserved for a service we depend on failing; not returned today", action: "retry later" },
];

const validationBody = `{
  "success": false,
  "error": "validation_error",
  "message": "The query is not valid.",
  "details": {
    "problems": [
${validationExample.problems.map((problem) => `      ${JSON.stringify(problem)}`).join(",\n")}
    ]
  },
  "timestamp": 1795261136,
  "trace_id": "…"
}`;

const problemCodes = [
  { code: "invalid_type", meaning: "not the right kind of value, such as letters or 1e1 for limit" },
  { code: "out_of_range", meaning: "a number outside the allowed range, such as limit=500" },
  { code: "invalid_value", meaning: "not one of the allowed values, also for an unknown value inside a comma-separated list" },
  { code: "invalid_format", meaning: "a date-time that is not RFC 3339" },
  { code: "invalid_cursor", meaning: "a cursor that is malformed, altered, or from another list, ordering or company" },
];

export default function ErrorsGuide() {
  return (
    <GuidePage href="/docs/errors">
      <p>
        Every answer uses an envelope. A success has <code>success: true</code> and the result in <code>data</code>; an error has <code>success: false</code>{" "}
        and says what went wrong:
      </p>
      <CodeBlock title={`GET ${validationExample.request} → 422`} code={validationBody} />
      <ul>
        <li>
          <code>error</code> is one of the codes below: branch on it (and on the HTTP status), never on the text.
        </li>
        <li>
          <code>message</code> is plain language, safe to show a person.
        </li>
        <li>
          <code>details</code> carries extra detail for some errors and is <code>null</code> otherwise.
        </li>
        <li>
          <code>timestamp</code> is the time of the answer in unix seconds.
        </li>
        <li>
          <code>trace_id</code> identifies the request; it is also sent as the <code>X-Trace-Id</code> header, on successes too. Quote it when you contact
          support.
        </li>
      </ul>

      <h2>Error codes</h2>
      <GuideTable label="Error codes">
        <thead>
          <tr>
            <th>
              <code>error</code>
            </th>
            <th>Status</th>
            <th>When</th>
            <th>What to do</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((row) => (
            <tr key={row.code}>
              <td>
                <code>{row.code}</code>
              </td>
              <td>{row.status}</td>
              <td>{row.when}</td>
              <td>{row.action}</td>
            </tr>
          ))}
        </tbody>
      </GuideTable>
      <p>
        The key, the account and the rate limit are checked before the query: a request with both a revoked key and a bad <code>limit</code> gets the 401.
        Requests refused with a 404 or a 422 count towards your rate limit too.
      </p>

      <h2>Validation problems</h2>
      <p>
        A 422 lists every invalid parameter at once in <code>details.problems</code>, at most one problem per parameter. Each problem has <code>parameter</code>{" "}
        (the query parameter&apos;s name), <code>code</code> and <code>message</code>:
      </p>
      <GuideTable label="Validation problems">
        <thead>
          <tr>
            <th>
              <code>code</code>
            </th>
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>
          {problemCodes.map((row) => (
            <tr key={row.code}>
              <td>
                <code>{row.code}</code>
              </td>
              <td>{row.meaning}</td>
            </tr>
          ))}
        </tbody>
      </GuideTable>
      <p>Unknown query parameters are ignored, not refused.</p>

      <h2>A recording that cannot be downloaded</h2>
      <p>
        <code>GET /v1/candidates/&#123;id&#125;/recording</code> answers 404 <code>not_found</code> when the candidate exists but has no recording to download.
        Then <code>details.recording_status</code> says why: <code>processing</code>, <code>failed</code>, <code>none</code>, <code>deleted</code>, or{" "}
        <code>null</code> when the candidate has no AI interview. See <a href="/docs/downloads">Downloads</a>.
      </p>

      <h2>Retrying</h2>
      <ul>
        <li>401, 403, 404 and 422 will not change by retrying the same request.</li>
        <li>
          429: wait for <code>Retry-After</code> (see <a href="/docs/rate-limits">Rate limits</a>).
        </li>
        <li>500 and 502, and network errors: retry with a growing pause. Every endpoint is a read, so retrying is always safe.</li>
      </ul>
    </GuidePage>
  );
}
