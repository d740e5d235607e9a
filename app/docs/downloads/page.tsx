import type { Metadata } from "next";
import { apiBase } from "../api-base";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";

export const metadata: Metadata = { title: "Downloads" };

export default function DownloadsGuide() {
  const download = `# 1. Ask the API for a link (needs the key)
curl -H "Authorization: Bearer $API_KEY" ${apiBase()}/files/file_…
# → "data": { "file": { "id": "file_…", "name": "cv.pdf", …, "download_url": "…/downloads/…", "expires_at": "…" } }

# 2. Download within 15 minutes (no key), keeping the file's name
curl -OJ "<download_url>"`;
  return (
    <GuidePage href="/docs/downloads">
      <p>
        Documents that candidates upload and AI interview recordings are downloaded in two steps: the API (with your key) hands out a link, and the link
        (without a key) serves the bytes for 15 minutes.
      </p>

      <h2>Documents</h2>
      <p>
        A candidate&apos;s <code>documents</code> list gives each document&apos;s <code>id</code>, <code>label</code>, <code>file_name</code>,{" "}
        <code>content_type</code>, <code>size_bytes</code> and <code>url</code>. That <code>url</code> is <code>GET /v1/files/&#123;id&#125;</code>, which
        returns a <code>file</code> with a <code>download_url</code> and its <code>expires_at</code>. It serves only files in a candidate&apos;s{" "}
        <code>documents</code> list.
      </p>
      <CodeBlock title="shell" code={download} />

      <h2>Recordings</h2>
      <p>
        <code>ai_interview.recording</code> has a <code>status</code> and a <code>url</code>, which is <code>GET /v1/candidates/&#123;id&#125;/recording</code>{" "}
        when the recording can be downloaded and <code>null</code> otherwise. That endpoint returns a <code>recording</code> with <code>content_type</code>,{" "}
        <code>duration_seconds</code>, <code>download_url</code> and <code>expires_at</code>.
      </p>
      <GuideTable label="What a download answers">
        <thead>
          <tr>
            <th>
              <code>status</code>
            </th>
            <th>Meaning</th>
            <th>Recording endpoint</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>ready</code>
            </td>
            <td>it can be downloaded</td>
            <td>200 with a link</td>
          </tr>
          <tr>
            <td>
              <code>processing</code>
            </td>
            <td>on its way; it may arrive up to about two days after the interview, even when the result is already final</td>
            <td rowSpan={4}>
              404 <code>not_found</code>, with the status in <code>details.recording_status</code>
            </td>
          </tr>
          <tr>
            <td>
              <code>failed</code>
            </td>
            <td>it did not arrive or could not be processed</td>
          </tr>
          <tr>
            <td>
              <code>none</code>
            </td>
            <td>the candidate&apos;s device recorded nothing</td>
          </tr>
          <tr>
            <td>
              <code>deleted</code>
            </td>
            <td>removed after the retention period</td>
          </tr>
        </tbody>
      </GuideTable>
      <p>
        A candidate without an AI interview has <code>ai_interview: null</code>; the recording endpoint answers 404 with <code>details.recording_status</code>{" "}
        <code>null</code>. A recording still <code>processing</code> when the result is already final arrives later without an event of its own: check the
        candidate again later.
      </p>

      <h2>The download link</h2>
      <ul>
        <li>
          It works for 15 minutes (until <code>expires_at</code>) without a key, for anyone who has it: pass it to the person or system that needs the file, not
          further. Ask the API for a new one whenever you need it; do not store links.
        </li>
        <li>
          It answers with <code>Content-Type</code>, <code>Content-Disposition: attachment</code> (with the file&apos;s name, UTF-8 included),{" "}
          <code>Cache-Control: no-store</code> and <code>Accept-Ranges: bytes</code>.
        </li>
        <li>
          It honours a single <code>Range</code> (<code>bytes=0-1023</code>), answering 206, or 416 when the range lies outside the file; use it to resume a
          large recording.
        </li>
        <li>
          An expired or altered link answers 403 <code>permission_denied</code>, a file deleted since 404 <code>not_found</code>, both in the error envelope and
          without any bytes. A suspended company&apos;s links stop working.
        </li>
      </ul>

      <h2>Transcripts</h2>
      <p>
        The transcript is not a file: <code>GET /v1/candidates/&#123;id&#125;/transcript</code> (the <code>ai_interview.transcript_url</code>) returns it
        question by question, with each answer&apos;s speaking time, and an empty list while there is no AI interview yet.
      </p>
    </GuidePage>
  );
}
