import { fileURLToPath } from "node:url";

/**
 * The arguments of `process.execPath` that run the web server (./server.ts)
 * for `npm run dev`, `npm start` and the benches alike.
 */
export function webServerArguments(mode: "dev" | "start", port: number, hostname: string): string[] {
  const script = fileURLToPath(new URL("./server.ts", import.meta.url));
  return ["--import", "tsx", script, ...webServerOptions(mode, port, hostname)];
}

/** What ./server.ts reads from its command line (the tests pass it to the server bundled into one file). */
export function webServerOptions(mode: "dev" | "start", port: number, hostname: string): string[] {
  return [mode, "--port", String(port), "--hostname", hostname];
}
