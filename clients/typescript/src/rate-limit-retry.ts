import { setTimeout as sleep } from "node:timers/promises";

export type RetryOptions = {
  /** Tries after the first one, for 429 answers only (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** A `Retry-After` longer than this is not waited for: the 429 becomes an `ApiError` at once (default 60). */
  maxWaitSeconds?: number;
};

/** Seconds to wait from a `Retry-After` value: whole seconds (what the API sends) or an HTTP date; null when absent or unreadable. */
function retryAfterSeconds(value: string | null): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * Wraps a fetch so that a 429 is sent again after the `Retry-After` the API
 * gives, a bounded number of times. Only the API's own GET requests pass
 * through it, so sending a request twice is always safe.
 */
export function retryingOnRateLimit(send: (request: Request) => Promise<Response>, options: RetryOptions = {}) {
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitSeconds = options.maxWaitSeconds ?? 60;
  return async (request: Request): Promise<Response> => {
    for (let retry = 0; ; retry++) {
      const response = await send(request.clone());
      if (response.status !== 429 || retry >= maxRetries) return response;
      const wait = retryAfterSeconds(response.headers.get("retry-after"));
      if (wait === null || wait > maxWaitSeconds) return response;
      // Free the connection before waiting; the body of a 429 says nothing the status does not.
      await response.body?.cancel();
      await sleep(wait * 1000, undefined, { signal: request.signal });
    }
  };
}
