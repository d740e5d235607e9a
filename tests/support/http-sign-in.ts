/** Signing in over plain HTTP, as next-auth's credentials form does, for tests that call the server without a browser. */
import type { TestServer } from "./server";

export const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);

/**
 * Posts the credentials form from this site (its `Origin`, which the web
 * server's edge requires) and returns the answer and every cookie set on the
 * way; the session's is among them when the password was right.
 */
export async function postSignIn(server: TestServer, email: string, password: string, headers: Record<string, string> = { Origin: server.baseUrl }) {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookiesOf(csrf).join("; "), ...headers },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  return { response, cookies: [...cookiesOf(csrf), ...cookiesOf(response)] };
}

/** The `Cookie` header of a signed-in session; fails when signing in did. */
export async function signInOverHttp(server: TestServer, email: string, password: string): Promise<string> {
  const { response, cookies } = await postSignIn(server, email, password);
  if (!cookies.some((cookie) => cookie.includes("next-auth.session-token="))) {
    throw new Error(`signing in as ${email} failed: ${response.status} ${await response.text()}`);
  }
  return cookies.join("; ");
}
