/**
 * An HTTP answer made before it is written, so one maker serves every writer:
 * Node's `ServerResponse` (the web server's edge, the worker's listener, /v1)
 * and a route's `Response` (`toResponse`).
 */
export type Answer = { status: number; headers: Record<string, string>; body: string };

export const toResponse = (answer: Answer) => new Response(answer.body, { status: answer.status, headers: answer.headers });
