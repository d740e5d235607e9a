/**
 * The quick start's commands and code, as text for the page and as what
 * tests/docs/guide-samples.test.ts runs: the curl call and the client script
 * against a real server, the client script with plain `node`, and `listen`
 * forwarding to a local receiver.
 */

/** The client is not on a public registry: it is packed from this repository's clients/typescript (docs/typescript-client.md). */
export const clientInstall = `# In a checkout of the Interview API repository: pack the client (builds its JavaScript)
npm pack ./clients/typescript
# In your project (Node.js 20.18 or newer):
npm install /path/to/interview-api-client-0.1.0.tgz`;

export const meWithCurl = (apiBase: string) => `curl -H "Authorization: Bearer $INTERVIEW_API_KEY" ${apiBase}/me`;

export const listCandidatesScript = (apiBase: string) => `// list-candidates.mjs: run with \`node list-candidates.mjs\` (no build step, no TypeScript needed)
import { createInterviewClient } from "@interview-api/client";

const client = createInterviewClient({ baseUrl: "${apiBase}", apiKey: process.env.INTERVIEW_API_KEY });

const me = await client.me();
console.log(\`Signed in as \${me.api_key.name} of \${me.company.name}\`);
for await (const candidate of client.candidates.list({ state: "submitted" })) {
  console.log(candidate.id, candidate.name, candidate.status, candidate.result.score);
}`;

export const listenCommand = (apiBase: string, forwardTo: string) =>
  `npx interview-api listen --api-url ${apiBase} --api-key "$INTERVIEW_API_KEY" --forward-to ${forwardTo}`;
