import { fileURLToPath } from "node:url";

/**
 * The arguments of `process.execPath` that run the web server (./server.ts)
 * for `npm run dev`, `npm start`, the tests and the benches alike.
 */
export function webServerArguments(mode: "dev" | "start", port: number, hostname: string): string[] {
  const script = fileURLToPath(new URL("./server.ts", import.meta.url));
  return ["--import", "tsx", script, mode, "--port", String(port), "--hostname", hostname];
}
