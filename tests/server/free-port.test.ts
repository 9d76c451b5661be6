import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { freePort } from "~/server/idp/test-client.server";

// A test's server failed to start in CI: the port a listen on port 0 had given was taken, before the server
// listened, by an outgoing connection of a test running alongside. Ports for servers now come from below the
// range outgoing connections use.
describe("freePort", () => {
  const ephemeral = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);

  it("gives ports below the range outgoing connections are given, that a server can listen on", async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeral);
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
      });
    }
  });

  it("passes over a port in use", async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    // The first pick falls on the port in use, the next elsewhere.
    const atPort = (port - 20_000 + 0.5) / (ephemeral - 20_000);
    const random = vi.spyOn(Math, "random").mockReturnValueOnce(atPort).mockReturnValueOnce(0.5);
    try {
      const next = await freePort();
      expect(random).toHaveBeenCalledTimes(2);
      expect(next).not.toBe(port);
    } finally {
      random.mockRestore();
      await new Promise((r) => server.close(r));
    }
  });
});
