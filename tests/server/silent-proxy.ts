import net from "node:net";

/**
 * A TCP proxy in front of a server that can fall silent: while silent it keeps every connection open and
 * accepts new ones, but forwards nothing either way and answers nothing, as a network that drops packets
 * does. What arrives meanwhile is held, and forwarded once it speaks again. While full, the connections it
 * has go on and a new one is refused as PostgreSQL refuses one past its max_connections.
 */
export interface SilentProxy {
  port: number;
  silence(): void;
  speak(): void;
  /** New connections are answered "too many clients" (SQLSTATE 53300) and closed; open ones go on. */
  fill(): void;
  close(): Promise<void>;
}

/** PostgreSQL's ErrorResponse message: severity, SQLSTATE and text. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

export async function silentProxy(target: { host: string; port: number }): Promise<SilentProxy> {
  let silent = false;
  let full = false;
  const wakers = new Set<() => void>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    if (full) {
      // The client's startup message first, as the server reads it before it refuses.
      client.once("data", () => client.end(errorResponse("53300", "sorry, too many clients already")));
      client.on("error", () => undefined);
      return;
    }
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
    fill: () => {
      full = true;
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
