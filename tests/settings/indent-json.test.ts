/** The log's pretty view of a body: indented, and otherwise the bytes that were sent, in their order. */
import { describe, expect, it } from "vitest";
import { indentJson } from "@/app/settings/webhooks/[id]/indent-json";

/** The text without the whitespace between tokens (none of these bodies has whitespace inside a string but the one checked apart). */
const tokens = (text: string) => text.replace(/\s+(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, "");

describe("the pretty view of a request body", () => {
  it("keeps the fields in the order they were sent, integer-like keys and repeated keys too, and numbers as written", () => {
    const sent = '{"z":1,"10":{"b":[1.0,2e3,12345678901234567890],"2":{}},"a":[],"a":"again","s":"a, b: {c} [d] \\"e\\""}';
    const shown = indentJson(sent);
    expect(tokens(shown)).toBe(sent);
    expect(shown.indexOf('"z"')).toBeLessThan(shown.indexOf('"10"'));
    expect(shown).toContain("1.0");
    expect(shown).toContain("12345678901234567890");
    expect(shown).toContain('"s": "a, b: {c} [d] \\"e\\""');
    // What JSON.parse would have shown instead: "10" moved first, "a" once, 1.0 as 1.
    expect(JSON.stringify(JSON.parse(sent), null, 2)).not.toBe(shown);
  });

  it("reads like JSON.stringify's two-space layout whenever parsing changes nothing", () => {
    const value = { id: "evt_1", test: false, change: null, candidate: { tags: [], answers: {}, list: [{ a: 1 }, { b: [true, null] }] } };
    expect(indentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
  });

  it("leaves text that is not whole JSON as it is (a body cut at 64 KiB)", () => {
    for (const text of ['{"a":[1,2', '{"a":"unterminated', "not json", '{"a":1}}']) expect(indentJson(text)).toBe(text);
  });
});
