/**
 * A loopback TCP proxy in front of a PostgreSQL server, for the faults a
 * network causes between the service and its database. The test decides,
 * per connection and chunk, what the network does:
 * - `reset` a connection when a chunk passes that the test picks (a cut in
 *   the middle of a statement or of its reply);
 * - `blackhole` a connection: its packets are dropped from then on, with no
 *   FIN or RST, as a lost route or NAT entry does;
 * - `pause` all traffic, held and passed on at `resume` (TCP's
 *   retransmissions bridge a stalled link; nothing is lost).
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export type Direction = "to-server" | "to-client";

type Link = { client: Socket; server: Socket; blackholed: boolean };

export type TcpProxy = {
  /** The database address through the proxy. */
  url: string;
  /** Connections open through the proxy now, blackholed ones included. */
  open: () => number;
  /** Resets the connection a chunk travels on when `pick` says so (RST to the client, the server's side closed). */
  resetWhen: (pick: ((chunk: Buffer, direction: Direction) => boolean) | null) => void;
  /** Drops every packet of one open connection from now on, without closing it; false when none is open. */
  blackholeOne: (choose: (count: number) => number) => boolean;
  pause: () => void;
  resume: () => void;
  close: () => Promise<void>;
};

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const links = new Set<Link>();
  let resetPick: ((chunk: Buffer, direction: Direction) => boolean) | null = null;
  let held: Array<() => void> | null = null;

  const server: Server = createServer((client: Socket) => {
    const link: Link = { client, server: connect(Number(target.port), target.hostname), blackholed: false };
    links.add(link);
    const forward = (chunk: Buffer, direction: Direction) => {
      if (link.blackholed) return;
      if (resetPick?.(chunk, direction)) {
        link.server.destroy();
        link.client.resetAndDestroy();
        return;
      }
      (direction === "to-server" ? link.server : link.client).write(chunk);
    };
    const pass = (direction: Direction) => (chunk: Buffer) => (held ? held.push(() => forward(chunk, direction)) : forward(chunk, direction));
    client.on("data", pass("to-server"));
    link.server.on("data", pass("to-client"));
    for (const socket of [client, link.server]) socket.on("error", () => {});
    client.on("close", () => {
      link.server.destroy();
      links.delete(link);
    });
    link.server.on("close", () => {
      // A blackholed connection hears nothing of its server's end either.
      if (!link.blackholed) client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.port = String((server.address() as { port: number }).port);

  return {
    url: url.toString(),
    open: () => links.size,
    resetWhen: (pick) => {
      resetPick = pick;
    },
    blackholeOne: (choose) => {
      const live = [...links].filter((link) => !link.blackholed);
      if (live.length === 0) return false;
      const link = live[choose(live.length)]!;
      link.blackholed = true;
      // The server's side goes, as its backend would once its own keepalive gives up.
      link.server.destroy();
      return true;
    },
    pause: () => {
      held ??= [];
    },
    resume: () => {
      const release = held ?? [];
      held = null;
      for (const send of release) send();
    },
    close: async () => {
      for (const link of links) {
        link.client.destroy();
        link.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
