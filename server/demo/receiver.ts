/**
 * A webhook receiver for `npm run dev`, so the demo company's webhook has
 * somewhere real to deliver to: HTTPS on 127.0.0.1 with a self-signed
 * certificate kept under DATA_DIR. It answers 200, except that about one
 * message in eight fails its first try with 503, so the delivery log, the
 * chart and the retries have something to show.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import path from "node:path";

export type DemoReceiver = { url: string; target: string; caFile: string; close: () => Promise<void> };

async function certificate(folder: string) {
  const certFile = path.join(folder, "cert.pem");
  const keyFile = path.join(folder, "key.pem");
  if (!existsSync(certFile)) {
    // A development dependency: only `npm run dev` gets here.
    const { generate } = await import("selfsigned");
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keySize: 2048,
      extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }] }],
    });
    mkdirSync(folder, { recursive: true });
    writeFileSync(keyFile, pems.private, { mode: 0o600 });
    writeFileSync(certFile, pems.cert);
  }
  return { certFile, cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
}

const failsFirstTry = (eventId: string) => createHash("sha256").update(eventId).digest()[0]! % 8 === 0;

export async function startDemoReceiver(dataDir: string, port: number): Promise<DemoReceiver> {
  const { certFile, cert, key } = await certificate(path.resolve(dataDir, "demo-receiver"));
  const server = createServer({ cert, key }, (request, response) => {
    request.resume();
    request.on("end", () => {
      const eventId = String(request.headers["service-event-id"] ?? "");
      const firstTry = request.headers["service-delivery-attempt"] === "1";
      if (firstTry && failsFirstTry(eventId)) response.writeHead(503, { "content-type": "text/plain" }).end("demo receiver: busy, try again");
      else response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `https://localhost:${port}/demo-receiver`,
    target: `localhost:${port}`,
    caFile: certFile,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
