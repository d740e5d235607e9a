/**
 * What counts as the database being unavailable (db/availability.ts), as
 * each driver reports it when a server takes a connection and closes it (a
 * TCP proxy or load balancer whose database is down, as during a failover):
 * graphile-worker's node-postgres says so in its message alone, with no code.
 */
import { createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { databaseUnavailability } from "@/db/availability";

let port: number;
const closer = createServer((socket) => socket.destroy());
beforeAll(() => new Promise<void>((resolve) => closer.listen(0, "127.0.0.1", () => resolve())));
beforeAll(() => {
  port = (closer.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => closer.close(() => resolve())));

it("takes node-postgres's lost connection for the database being unavailable", async () => {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "nobody", database: "nothing" });
  client.on("error", () => {});
  const error = await client.connect().catch((failure: unknown) => failure);
  expect(error).toMatchObject({ message: "Connection terminated unexpectedly" });
  expect(databaseUnavailability(error)).toEqual({ reason: "database connection lost", beforeSending: false });
});

it("does not take another error without a code for it", () => {
  expect(databaseUnavailability(new Error("Connection terminated unexpectedly, said the user"))).toBeNull();
  expect(databaseUnavailability(new TypeError("Cannot read properties of undefined"))).toBeNull();
});
