/**
 * JSON text indented for reading, its tokens left exactly as they were sent:
 * fields in the order of the bytes (JSON.parse would move integer-like keys
 * such as "10" first, and drop a repeated key), numbers as written (1.0 stays
 * 1.0, a long integer keeps its digits). Whitespace between tokens is
 * replaced by JSON.stringify's two-space layout, so well-formed JSON reads
 * the same as `JSON.stringify(value, null, 2)` whenever parsing would change
 * nothing. Text that is not whole JSON (a body cut at 64 KiB) is returned as
 * it is.
 */
export function indentJson(text: string): string {
  let out = "";
  let depth = 0;
  let index = 0;
  const newline = () => `\n${"  ".repeat(depth)}`;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end < 0) return text;
      out += text.slice(index, end);
      index = end;
      continue;
    }
    index++;
    if (char === " " || char === "\n" || char === "\r" || char === "\t") continue;
    if (char === "{" || char === "[") {
      const close = char === "{" ? "}" : "]";
      const next = nextToken(text, index);
      // An empty object or array stays on one line, as JSON.stringify writes it.
      if (text[next] === close) {
        out += char + close;
        index = next + 1;
      } else {
        depth++;
        out += char + newline();
      }
    } else if (char === "}" || char === "]") {
      if (depth === 0) return text;
      depth--;
      out += newline() + char;
    } else if (char === ",") out += `,${newline()}`;
    else if (char === ":") out += ": ";
    else out += char;
  }
  return depth === 0 && isJson(text) ? out : text;
}

/** The index just past the string that starts at `start`, or -1 when it never ends. */
function stringEnd(text: string, start: number) {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === '"') return index + 1;
  }
  return -1;
}

function nextToken(text: string, from: number) {
  let index = from;
  while (index < text.length && " \n\r\t".includes(text[index]!)) index++;
  return index;
}

function isJson(text: string) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
