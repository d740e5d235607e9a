/**
 * The SSRF guard. Every case points at a canary listening on 127.0.0.1 (by an
 * IP spelling, or a name whose DNS answer is private); the canary must see no
 * connection at all. DNS answers come from a fake resolver. The socket layer
 * under the guard is wrapped so that nothing could ever connect anywhere but
 * the canary, and it records any connection the guard let through.
 */
import { connect, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkWebhookAddress } from "@/server/webhooks/admin/address";
import { createWebhook, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { createDeliveryClient, type DeliveryClient, type OpenSocket, type Resolver } from "@/server/webhooks/delivery/delivery-client";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { type Receiver, startReceiver } from "../support/receiver";

const test = useTestDatabase();
let canary: Server;
let canaryPort: number;
let canaryConnections = 0;
const connectedTo: string[] = [];
let client: DeliveryClient;

const answers: Record<string, string[]> = {
  "loopback.example.com": ["127.0.0.1"],
  "metadata.example.com": ["169.254.169.254"],
  "internal.example.com": ["10.1.2.3"],
  "mixed.example.com": ["8.8.8.8", "127.0.0.1"],
  "v6-loopback.example.com": ["::1"],
  "mapped.example.com": ["::ffff:10.0.0.1"],
  "nat64.example.com": ["64:ff9b::a9fe:a9fe"],
  "cgnat.example.com": ["100.100.100.200"],
  "ula.example.com": ["fd12:3456::1"],
  "link-local.example.com": ["fe80::1"],
  "zero.example.com": ["0.0.0.0"],
};
let rebindCalls = 0;
const resolver: Resolver = async (host) => {
  if (host === "rebind.example.com") return ++rebindCalls === 1 ? ["93.184.216.34"] : ["127.0.0.1"];
  const found = answers[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return found;
};

/** The real socket layer, but only ever towards the canary. */
const guardedOpenSocket: OpenSocket = (target) => {
  connectedTo.push(target.host);
  if (target.host !== "127.0.0.1") throw new Error(`test refused to connect to ${target.host}`);
  return connect(target);
};

beforeAll(async () => {
  canary = createServer((socket) => {
    canaryConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  canaryPort = (canary.address() as { port: number }).port;
  client = createDeliveryClient({ resolver, openSocket: guardedOpenSocket });
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => canary.close(resolve));
  expect(canaryConnections).toBe(0);
  expect(connectedTo).toEqual([]);
});

const hosts = [
  "127.0.0.1",
  "127.1",
  "0x7f.1",
  "0x7f000001",
  "2130706433",
  "017700000001",
  "0177.0.0.1",
  "127.0.0.1.",
  "１２７.０.０.１",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[0:0:0:0:0:ffff:7f00:1]",
  "[64:ff9b::7f00:1]",
  "[2002:7f00:1::]",
  "[::127.0.0.1]",
  "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
  "0.0.0.0",
  "[::]",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "[fe80::1]",
  "[fc00::1]",
  "[fd00:ec2::254]",
  "255.255.255.255",
  "224.0.0.1",
  "[ff02::1]",
  "198.18.0.1",
  "192.0.0.1",
  "240.0.0.1",
  ...Object.keys(answers),
];

describe("connection-time guard", () => {
  it("has at least 40 cases", () => expect(hosts.length + 3).toBeGreaterThanOrEqual(40));

  it.each(hosts)("refuses https://%s", async (host) => {
    const result = await client.post(`https://${host}:${canaryPort}/hook`, "{}", { "Content-Type": "application/json" });
    expect(result.succeeded).toBe(false);
    expect(result.errorClass, result.errorMessage ?? "").toBe("blocked_address");
  });

  it("refuses plain http even to an address it would otherwise accept", async () => {
    const result = await client.post(`http://127.0.0.1:${canaryPort}/hook`, "{}", {});
    expect(result.errorClass).toBe("blocked_address");
  });

  it("classifies a name that does not resolve as dns", async () => {
    const result = await client.post(`https://nowhere.example.com:${canaryPort}/hook`, "{}", {});
    expect(result.errorClass).toBe("dns");
  });

  it("checks again at connection time a name that answered public when saved", async () => {
    const companyId = await makeCompany(test.ctx, "Rebind");
    const { id } = await createWebhook(test.ctx, companyId, { url: `https://rebind.example.com:${canaryPort}/hook` }, { allowTargets: [], resolver });
    expect(rebindCalls).toBe(1);
    const result = await client.post(`https://rebind.example.com:${canaryPort}/hook`, "{}", {});
    expect(result.errorClass).toBe("blocked_address");
    expect(rebindCalls).toBe(2);
    await expect(updateWebhook(test.ctx, companyId, id, { url: `https://metadata.example.com/hook` }, { allowTargets: [], resolver })).rejects.toThrow(
      /metadata.example.com resolves to 169.254.169.254/,
    );
  });
});

describe("redirects", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it("are never followed, even from an allowed receiver to a private address", async () => {
    receiver.answer(() => ({ status: 307, headers: { Location: `https://127.0.0.1:${canaryPort}/stolen` } }));
    const allowed = createDeliveryClient({ allowTargets: [receiver.target], extraCa: receiver.ca });
    const result = await allowed.post(receiver.url(), "{}", {});
    await allowed.close();
    expect(result).toMatchObject({ succeeded: false, status: 307, errorClass: "redirect" });
    expect(receiver.received).toHaveLength(1);
  });
});

describe("save-time address rules", () => {
  it.each([
    ["http://hooks.example.com/x", "must start with https://"],
    ["https://user:pass@hooks.example.com/x", "must not contain a user name or password"],
    ["https://127.0.0.1/x", "not an IP address"],
    ["https://2130706433/x", "not an IP address"],
    ["https://[::1]/x", "not an IP address"],
    ["https://localhost/x", "localhost is local"],
    ["https://api.localhost/x", "is local"],
    ["https://printer.local/x", "is local"],
    ["https://db.internal/x", "is local"],
    ["https://intranet/x", "has no domain"],
    ["not a url", "is not a valid URL"],
  ])("refuses %s", (url, problem) => {
    const check = checkWebhookAddress(url, []);
    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.problem).toContain(problem);
  });

  it("accepts a public https address, and an exact allowed host:port", () => {
    expect(checkWebhookAddress("https://hooks.example.com/in?x=1", [])).toEqual({ ok: true, url: "https://hooks.example.com/in?x=1" });
    expect(checkWebhookAddress("https://localhost:8443/in", ["localhost:8443"]).ok).toBe(true);
    expect(checkWebhookAddress("https://localhost:8444/in", ["localhost:8443"]).ok).toBe(false);
    expect(checkWebhookAddress("http://localhost:8443/in", ["localhost:8443"]).ok).toBe(false);
  });

  it("explains the problem when a webhook is saved", async () => {
    const companyId = await makeCompany(test.ctx, "Rules");
    await expect(createWebhook(test.ctx, companyId, { url: "https://10.0.0.1/hook" }, { allowTargets: [] })).rejects.toThrow(
      "The address must use a host name, not an IP address.",
    );
  });
});
