/**
 * Progress of long work, on stderr only, so that stdout stays the command's
 * one result (one JSON object with --json). A line every few seconds, and one
 * at the end.
 */
const everyMs = 3_000;

export function progressLine(what: string, total: number): (done: number) => void {
  const started = performance.now();
  let printed = started;
  return (done) => {
    const now = performance.now();
    if (done < total && now - printed < everyMs) return;
    printed = now;
    const perSecond = Math.round(done / Math.max((now - started) / 1000, 0.001));
    process.stderr.write(`${done.toLocaleString("en")} of ${total.toLocaleString("en")} ${what} done, ${perSecond.toLocaleString("en")}/s\n`);
  };
}
