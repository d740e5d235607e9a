/**
 * The guide's paging loop, as text for the page and as code the tests run
 * against a real server (tests/docs/guide-samples.test.ts).
 */
export const pagingLoop = (apiBase: string) => `// Node 18+ or a browser-free runtime with fetch.
export async function* allCandidates(apiKey, filters = {}) {
  let cursor = null;
  do {
    const query = new URLSearchParams(filters);
    if (cursor) query.set("cursor", cursor);
    const response = await fetch(\`${apiBase}/candidates?\${query}\`, {
      headers: { Authorization: \`Bearer \${apiKey}\` },
    });
    const body = await response.json();
    if (!body.success) throw new Error(\`\${response.status} \${body.error}: \${body.message} (trace_id \${body.trace_id})\`);
    yield* body.data.candidates;
    cursor = body.data.next_cursor;
  } while (cursor);
}

// Every candidate who submitted in March 2026, newest submission first:
// for await (const candidate of allCandidates(process.env.API_KEY, {
//   submitted_after: "2026-03-01T00:00:00Z",
//   submitted_before: "2026-04-01T00:00:00Z",
// })) console.log(candidate.id, candidate.result.state);`;
