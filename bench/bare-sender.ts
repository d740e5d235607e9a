/**
 * The webhook benchmark's second baseline: a process with no database that
 * signs and POSTs the body it is sent, `count` times, `concurrency` at a
 * time: what this machine's receiver, TLS and signing allow one process.
 * Forked with IPC: `tsx bench/bare-sender.ts CA_FILE CONCURRENCY`, then
 * sent `{ url, body, secret, count }`; it answers "sent".
 */
import { signedPoster } from "./signed-post";

const [caFile, concurrency] = process.argv.slice(2) as [string, string];
const post = signedPoster(caFile);

process.once("message", async (message) => {
  const { url, body, secret, count } = message as { url: string; body: string; secret: string; count: number };
  let next = 0;
  const sender = async () => {
    while (next < count) {
      next++;
      await post(url, body, secret);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, sender));
  process.send?.("sent");
});
process.send?.("ready");
