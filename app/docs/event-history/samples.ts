/**
 * The guide's catch-up loop, as text for the page and as code the tests run
 * against a real server (tests/docs/guide-samples.test.ts).
 */
export const catchUpLoop = (apiBase: string) => `// store: where you keep the cursor (a database row, a file), with load() and save(cursor).
// handle: your code for one event; it must ignore an event id it has already handled.
export async function catchUp(apiKey, store, handle) {
  let after = await store.load(); // null the first time: start at the oldest kept event
  for (;;) {
    const query = new URLSearchParams(after ? { after } : {});
    const response = await fetch(\`${apiBase}/events?\${query}\`, {
      headers: { Authorization: \`Bearer \${apiKey}\` },
    });
    const body = await response.json();
    if (!body.success) throw new Error(\`\${response.status} \${body.error}: \${body.message} (trace_id \${body.trace_id})\`);
    for (const event of body.data.events) await handle(event);
    after = body.data.next_cursor;
    await store.save(after); // only once the page is handled
    if (!body.data.has_more) return; // caught up: run again in a minute or so
  }
}`;
