/**
 * A connection that dies while postgres.js sets it up must fail only the
 * queries waiting on it. postgres.js 3.4.9 reads the array types as the
 * first statement of every new connection and drops that promise
 * (porsager/postgres#1192, #1223): when the backend dies at that moment (a
 * PostgreSQL restart while pools refill), the rejection escapes every caller
 * and Node ends the process. Our copy carries the fix (patches/).
 *
 * The fault is forced, not waited for: a loopback proxy in front of the test
 * database resets the connection the moment the driver sends that statement.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { useTestDatabase } from "../support/database";

const test = useTestDatabase();
const arrayTypesQuery = "from pg_catalog.pg_type";

let proxy: Server;
let proxyUrl: string;
let resets = 0;
/** How many connections the proxy resets when they ask for the array types; later ones pass. */
let resetsLeft = 0;

beforeAll(async () => {
  const target = new URL(test.url);
  proxy = createServer((client: Socket) => {
    const server = connect(Number(target.port), target.hostname);
    client.on("data", (chunk: Buffer) => {
      if (resetsLeft > 0 && chunk.includes(arrayTypesQuery)) {
        resetsLeft--;
        resets++;
        server.destroy();
        client.resetAndDestroy();
        return;
      }
      server.write(chunk);
    });
    server.on("data", (chunk) => client.write(chunk));
    for (const socket of [client, server]) socket.on("error", () => {});
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = new URL(test.url);
  url.port = String((proxy.address() as { port: number }).port);
  proxyUrl = url.toString();
});

afterAll(() => new Promise((resolve) => proxy.close(resolve)));

const escaped: unknown[] = [];
const onUnhandled = (reason: unknown) => escaped.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));
afterEach(() => {
  escaped.length = 0;
  resets = 0;
});

it("fails only the waiting query when a new connection dies while the driver reads the array types", async () => {
  const database = createDatabase(proxyUrl, { max: 1 });
  try {
    resetsLeft = 1;
    const first = await database.sql`select 1 as one`.catch((error: unknown) => error);
    // Whatever escaped the driver is reported on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(resets).toBe(1);
    expect(escaped).toEqual([]);
    expect(first).toMatchObject({ code: "ECONNRESET" });
    // The pool opens a new connection for the next query, arrays parsed as before.
    const [row] = await database.sql<Array<{ ids: string[] }>>`select array['a', 'b'] as ids`;
    expect(row!.ids).toEqual(["a", "b"]);
  } finally {
    await database.close();
  }
});
