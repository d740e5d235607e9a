/** Where sign-in sends someone back: only paths of this site, never elsewhere (open redirects). */
import { describe, expect, it } from "vitest";
import { defaultSignedInPath, safeCallbackPath, signInPath } from "@/server/auth/callback-path";

describe("the callback path after signing in", () => {
  it("keeps a path of this site, with its query and fragment", () => {
    expect(safeCallbackPath("/settings/webhooks/wh_abc")).toBe("/settings/webhooks/wh_abc");
    expect(safeCallbackPath("/candidates/cand_1?tab=transcript#answers")).toBe("/candidates/cand_1?tab=transcript#answers");
    expect(safeCallbackPath("/settings/events")).toBe("/settings/events");
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["an absolute URL", "https://evil.com/settings/webhooks"],
    ["an absolute URL of another scheme", "javascript:alert(1)"],
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with a path", "//evil.com/settings/webhooks"],
    ["a backslash", "/\\evil.com"],
    ["backslashes only", "\\\\evil.com"],
    ["a tab the browser would drop", "/\t/evil.com"],
    ["a newline the browser would drop", "/\n/evil.com"],
    ["a dot segment that leaves `//`", "/.//evil.com"],
    ["a parent segment that leaves `//`", "/settings/..//evil.com"],
    ["a relative path without a slash", "evil.com"],
    ["the sign-in page itself", "/sign-in?callbackUrl=/settings/events"],
    ["the API", "/api/auth/signout"],
    ["something very long", `/settings/${"a".repeat(3000)}`],
  ])("refuses %s and goes to the default", (_, value) => {
    expect(safeCallbackPath(value)).toBe(defaultSignedInPath);
  });

  it("leaves a percent-encoded slash or backslash encoded, so it stays a path here", () => {
    expect(safeCallbackPath("/%2F%2Fevil.com")).toBe("/%2F%2Fevil.com");
    expect(safeCallbackPath("/%5Cevil.com")).toBe("/%5Cevil.com");
  });

  it("builds the sign-in link with the path, or without one for the default", () => {
    expect(signInPath("/settings/webhooks/wh_1")).toBe("/sign-in?callbackUrl=%2Fsettings%2Fwebhooks%2Fwh_1");
    expect(signInPath("//evil.com")).toBe("/sign-in");
    expect(signInPath(null)).toBe("/sign-in");
  });
});
