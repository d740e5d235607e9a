/**
 * A loopback TCP proxy in front of a PostgreSQL server, for the faults a
 * network causes between the service and its database. The test decides,
 * per connection and chunk, what the network does:
 * - `reset` the connection a chunk the test picks travels on (a cut in the
 *   middle of a statement or of its reply);
 * - `blackhole` a connection (the one a chunk travels on, or any open one):
 *   its packets are dropped from then on, with no FIN or RST, as a lost route
 *   or NAT entry does;
 * - `pause` all traffic, held and passed on at `resume` (TCP's
 *   retransmissions bridge a stalled link; nothing is lost);
 * - `switchTo` another server, as a DNS name or a virtual IP moved to a
 *   promoted standby looks to the service: new connections go there.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export type Direction = "to-server" | "to-client";

type Link = { client: Socket; server: Socket; blackholed: boolean };

/** What happens to a chunk, and to the connection it travels on from then on. */
export type ChunkFate = "pass" | "reset" | "blackhole";

export type TcpProxy = {
  /** The database address through the proxy. */
  url: string;
  /** Connections open through the proxy now, blackholed ones included. */
  open: () => number;
  /** Connections the proxy has accepted since it started (a client that retries without pause shows here). */
  accepted: () => number;
  /** Sends new connections to the server at `targetUrl` (its host and port) from now on; open ones stay where they are. */
  switchTo: (targetUrl: string) => void;
  /** Decides each chunk's fate (`null`: every chunk passes). A reset sends the client an RST and closes the server's side. */
  decide: (fate: ((chunk: Buffer, direction: Direction) => ChunkFate) | null) => void;
  /** Drops every packet of one open connection from now on, without closing it; false when none is open. */
  blackholeOne: (choose: (count: number) => number) => boolean;
  pause: () => void;
  resume: () => void;
  close: () => Promise<void>;
};

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  let target = new URL(targetUrl);
  let accepted = 0;
  const links = new Set<Link>();
  let fateOf: ((chunk: Buffer, direction: Direction) => ChunkFate) | null = null;
  let held: Array<() => void> | null = null;

  const server: Server = createServer((client: Socket) => {
    accepted++;
    const link: Link = { client, server: connect(Number(target.port), target.hostname), blackholed: false };
    links.add(link);
    const forward = (chunk: Buffer, direction: Direction) => {
      if (link.blackholed) return;
      const fate = fateOf?.(chunk, direction) ?? "pass";
      if (fate === "reset") {
        link.server.destroy();
        link.client.resetAndDestroy();
      } else if (fate === "blackhole") blackhole(link);
      else (direction === "to-server" ? link.server : link.client).write(chunk);
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
  function blackhole(link: Link) {
    link.blackholed = true;
    // The server's side goes, as its backend would once its own keepalive gives up.
    link.server.destroy();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.port = String((server.address() as { port: number }).port);

  return {
    url: url.toString(),
    open: () => links.size,
    accepted: () => accepted,
    switchTo: (next) => {
      target = new URL(next);
    },
    decide: (fate) => {
      fateOf = fate;
    },
    blackholeOne: (choose) => {
      const live = [...links].filter((link) => !link.blackholed);
      if (live.length === 0) return false;
      blackhole(live[choose(live.length)]!);
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
