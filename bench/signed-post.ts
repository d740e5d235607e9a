/**
 * What the two baselines of the webhook benchmark send: a body signed as the
 * product signs it (`t=…,v1=…` over `timestamp.body`) and POSTed over HTTPS to
 * the bench's receiver, its answer read and dropped.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { Agent, request } from "undici";

/** A sender of signed POSTs trusting the receiver's certificate authority in `caFile`. */
export function signedPoster(caFile: string) {
  const dispatcher = new Agent({ connect: { ca: [...rootCertificates, readFileSync(caFile, "utf8")] } });
  return async (url: string, body: string, secret: string) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
    const response = await request(url, {
      method: "POST",
      dispatcher,
      body,
      headers: { "Content-Type": "application/json", "Service-Signature": `t=${timestamp},v1=${signature}` },
    });
    await response.body.dump();
  };
}
