/**
 * The log's state lives in the address, so Back, a bookmark or a link shared
 * ("look at this attempt") shows the same thing: `status`, `type`, `search`,
 * `from` and `to` (instants) filter; `message` opens a message and `attempt`
 * points at one of its tries. A value that is not one of the log's is left out.
 */
export const logParams = { status: "status", eventType: "type", search: "search", from: "from", to: "to", message: "message", attempt: "attempt" } as const;
