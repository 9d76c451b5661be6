import net from "node:net";

/**
 * A TCP gate in front of the e2e server: the browser talks to the app through it, so "offline" means no
 * connection at all, for the page and its service worker alike. It can also let one sync request reach
 * the server and then drop the connection before the answer arrives (a server that stopped mid-sync), or
 * hold sync requests back until the test lets them on.
 */
export class Gate {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  private open = true;
  private dropSync = 0;
  private refusing = false;
  private held: { waiting: (() => void)[]; arrived: () => void } | null = null;
  port = 0;

  constructor(private target: number) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server!.address() as net.AddressInfo).port;
  }

  private accept(client: net.Socket) {
    if (!this.open) return client.destroy();
    const upstream = net.connect(this.target, "127.0.0.1");
    this.sockets.add(client).add(upstream);
    let dropping = false;
    let waiting: Buffer[] | null = null;
    client.on("data", (chunk: Buffer) => {
      if (waiting) return void waiting.push(chunk);
      if (this.refusing && chunk.toString("latin1").startsWith("POST /api/survey-offline-sync/")) return end();
      if (this.held && chunk.toString("latin1").startsWith("POST /api/survey-offline-sync/")) {
        const chunks = (waiting = [chunk]);
        this.held.waiting.push(() => {
          waiting = null;
          for (const c of chunks) upstream.write(c);
        });
        this.held.arrived();
        return;
      }
      if (this.dropSync > 0 && chunk.toString("latin1").startsWith("POST /api/survey-offline-sync/")) {
        this.dropSync -= 1;
        dropping = true;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (dropping) {
        // The server answered: the answer never reaches the browser.
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  }

  /** No connection from now on; open ones are cut. */
  cut() {
    this.open = false;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore() {
    this.open = true;
  }

  /** While refused, every sync request's connection is cut before it reaches the server (as if offline). */
  refuseSyncs(refused: boolean) {
    this.refusing = refused;
  }

  /** The next sync request reaches the server, but its answer is lost. */
  loseNextSyncAnswer() {
    this.dropSync += 1;
  }

  /**
   * Sync requests wait at the gate from now on: the server does not get them until `release`. `arrived`
   * resolves once the first one waits.
   */
  holdSyncs() {
    let arrived = () => {};
    const first = new Promise<void>((resolve) => (arrived = resolve));
    const held = { waiting: [] as (() => void)[], arrived };
    this.held = held;
    return {
      arrived: first,
      release: () => {
        if (this.held === held) this.held = null;
        for (const go of held.waiting) go();
      },
    };
  }

  async stop() {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
