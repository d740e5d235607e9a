import type { Metadata } from "next";
import { env } from "@/server/env";
import { CodeBlock, GuidePage, GuideTable } from "../guide-page";

export const metadata: Metadata = { title: "Rate limits" };

const backoff = `// Waits as long as the API asks, then tries again (every endpoint is a read: retrying is safe).
export async function getWithRetry(url, apiKey) {
  for (;;) {
    const response = await fetch(url, { headers: { Authorization: \`Bearer \${apiKey}\` } });
    if (response.status !== 429) return response;
    const seconds = Number(response.headers.get("Retry-After") ?? "1");
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}`;

export default function RateLimitsGuide() {
  const perKey = env.RATE_LIMIT_PER_KEY;
  return (
    <GuidePage href="/docs/rate-limits">
      <p>
        Each API key may make {perKey} requests a minute, and all keys of one company together {env.RATE_LIMIT_PER_COMPANY} a minute. The API is free: limits
        only keep it fast for everyone.
      </p>

      <h2>How the limit refills</h2>
      <p>
        The limit refills continuously rather than in fixed one-minute windows: at {perKey} a minute, room for one more request comes back every{" "}
        {Math.round(60_000 / perKey)} ms. A quiet key can send a burst of up to {perKey} requests at once, then one every {Math.round(60_000 / perKey)} ms.
      </p>
      <p>
        Every request counts, including those refused with a 404 or a 422. Several tools sharing one company share its company-wide limit, so give each tool its
        own key and spread large jobs out.
      </p>

      <h2>Headers on every answer to a valid key</h2>
      <GuideTable label="Headers on every answer to a valid key">
        <thead>
          <tr>
            <th>Header</th>
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>RateLimit-Limit</code>
            </td>
            <td>requests allowed per minute, by the tighter of your key&apos;s and your company&apos;s limits</td>
          </tr>
          <tr>
            <td>
              <code>RateLimit-Remaining</code>
            </td>
            <td>requests you can make right now</td>
          </tr>
          <tr>
            <td>
              <code>RateLimit-Reset</code>
            </td>
            <td>seconds until the full limit is available again</td>
          </tr>
        </tbody>
      </GuideTable>
      <p>Read the limits from these headers rather than hard-coding them: they show the limits that apply to you.</p>

      <h2>When you hit the limit: 429 and Retry-After</h2>
      <p>
        A request over the limit gets <code>429</code> with error <code>rate_limited</code> and a <code>Retry-After</code> header: a whole number of seconds
        until one more request fits. Wait that long, then retry. Retrying sooner only gets another 429.
      </p>
      <CodeBlock title="JavaScript" code={backoff} />
    </GuidePage>
  );
}
