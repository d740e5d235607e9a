/** The guides, in reading order: the navigation and each guide's "next" link follow it. */
export const guides = [
  { href: "/docs/quick-start", title: "Quick start", summary: "A key, a first call, the TypeScript client, listen, then a webhook." },
  { href: "/docs/authentication", title: "Authentication and keys", summary: "Create a key, send it, revoke it." },
  { href: "/docs/pagination", title: "Pagination and cursors", summary: "Read every interview and candidate, page by page." },
  { href: "/docs/event-history", title: "The event history", summary: "Catch up on every change with GET /v1/events and a stored cursor." },
  { href: "/docs/errors", title: "Errors", summary: "Every error code, its status, and what to do about it." },
  { href: "/docs/rate-limits", title: "Rate limits", summary: "How many requests fit in a minute, and Retry-After." },
  { href: "/docs/downloads", title: "Downloads", summary: "Documents and recordings through short-lived links." },
  { href: "/docs/webhooks", title: "Webhooks", summary: "What we send, when we retry, and how to receive it safely." },
  { href: "/docs/verifying-signatures", title: "Verifying webhook signatures", summary: "Check a message in Node, Python or Go." },
] as const;
