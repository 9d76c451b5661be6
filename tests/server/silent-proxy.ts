import net from "node:net";

/**
 * A TCP proxy in front of a server that can fall silent: while silent it keeps every connection open and
 * accepts new ones, but forwards nothing either way and answers nothing, as a network that drops packets
 * does. What arrives meanwhile is held, and forwarded once it speaks again.
 */
export interface SilentProxy {
  port: number;
  silence(): void;
  speak(): void;
  close(): Promise<void>;
}

export async function silentProxy(target: { host: string; port: number }): Promise<SilentProxy> {
  let silent = false;
  const wakers = new Set<() => void>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    let upstream: net.Socket | undefined;
    const toUpstream: Buffer[] = [];
    const toClient: Buffer[] = [];
    const flush = () => {
      if (silent) return;
      if (!upstream) {
        upstream = net.connect(target.port, target.host);
        sockets.add(upstream);
        upstream.on("data", (d: Buffer) => (silent ? toClient.push(d) : client.write(d)));
        upstream.on("close", () => client.destroy());
        upstream.on("error", () => client.destroy());
      }
      for (const d of toUpstream.splice(0)) upstream.write(d);
      for (const d of toClient.splice(0)) client.write(d);
    };
    wakers.add(flush);
    client.on("data", (d: Buffer) => {
      toUpstream.push(d);
      flush();
    });
    client.on("close", () => {
      wakers.delete(flush);
      upstream?.destroy();
    });
    client.on("error", () => upstream?.destroy());
    flush();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    silence: () => {
      silent = true;
    },
    speak: () => {
      silent = false;
      for (const wake of wakers) wake();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
