import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../app/server/idp/test-client.server";

/**
 * The topology operators run, on this machine: nginx (Debian's package) in front of two copies of the
 * production build over one PostgreSQL database, signed in through the identity provider running as a
 * process of its own, with short-lived access tokens. The copies share their secrets; the attachments are in
 * the database (the database store, PostgreSQL's default), and each copy has its own data folder and nothing
 * else in common. Everything lives in a temporary folder and is removed after.
 */

export const TOKEN_SECONDS = 20;
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");

export type CopyName = "a" | "b";

interface Proc {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function adminQuery<T extends pg.QueryResultRow>(
  text: string,
  values?: unknown[],
  url = POSTGRES_ADMIN_URL,
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
}

export class Topology {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "survey-deploy-"));
  readonly logDir: string;
  readonly database = `survey_deploy_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  databaseUrl = "";
  ports = { proxy: 0, tls: 0, idp: 0, a: 0, b: 0 };
  /** How many surveys the database held once both copies had started (the demo data, seeded once). */
  surveysAtStart = 0;
  private procs: Partial<Record<"idp" | "nginx" | CopyName, Proc>> = {};
  /** Every log line each copy wrote, across its restarts. */
  readonly logs: Record<CopyName, string[]> = { a: [], b: [] };

  constructor(logDir: string) {
    this.logDir = logDir;
    fs.mkdirSync(logDir, { recursive: true });
  }

  get url() {
    return `http://localhost:${this.ports.proxy}`;
  }
  get tlsUrl() {
    return `https://localhost:${this.ports.tls}`;
  }
  get issuer() {
    return `http://localhost:${this.ports.idp}`;
  }
  copyUrl(name: CopyName) {
    return `http://localhost:${this.ports[name]}`;
  }

  /** What every copy shares: the database (with the attachments), the provider, the secrets, the public address. */
  private sharedEnv(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATABASE_URL: this.databaseUrl,
      PUBLIC_URL: this.url,
      TRUST_PROXY: "1",
      OIDC_ISSUER: this.issuer,
      OIDC_CLIENT_SECRET: "deployment-client-secret-0123456789",
      SESSION_SECRET: "deployment-session-secret-0123456789",
      ATTACHMENT_LINK_SECRET: "deployment-link-secret-0123456789",
      OFFLINE_KEY_SECRET: "deployment-offline-key-secret-0123456789",
      IDP_ACCESS_TOKEN_TTL_SECONDS: String(TOKEN_SECONDS),
      DEMO_DATA: "1",
      LOG_LEVEL: "debug",
    };
  }

  private spawn(name: "idp" | "nginx" | CopyName, command: string, args: string[], env: Record<string, string>) {
    const child = spawn(command, args, { cwd: root, env: env as NodeJS.ProcessEnv, stdio: "pipe" });
    const lines: string[] = [];
    const file = fs.createWriteStream(path.join(this.logDir, `${name}.log`), { flags: "a" });
    const keep = (d: Buffer) => {
      file.write(d);
      for (const line of d.toString().split("\n")) {
        if (!line) continue;
        lines.push(line);
        if (name === "a" || name === "b") this.logs[name].push(line);
      }
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => (file.end(), resolve(code))));
    this.procs[name] = { child, lines, exited };
    return this.procs[name]!;
  }

  async start() {
    for (const key of Object.keys(this.ports) as (keyof typeof this.ports)[]) this.ports[key] = await freePort();
    await adminQuery(`create database "${this.database}"`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${this.database}`;
    this.databaseUrl = url.toString();

    this.spawn("idp", process.execPath, ["server/idp.js"], {
      ...this.sharedEnv(),
      DATA_DIR: path.join(this.dir, "idp"),
      LOG_LEVEL: "error",
    });
    await waitFor(
      "the identity provider",
      async () => (await fetch(`${this.issuer}/.well-known/openid-configuration`)).ok,
    );
    // Both copies at once over the empty database: migrations and demo data must happen once.
    await Promise.all([this.startCopy("a"), this.startCopy("b")]);
    this.surveysAtStart = (await this.query<{ n: number }>("select count(*)::int as n from surveys"))[0]!.n;
    this.writeNginxConfig();
    await this.proxyUp();
  }

  async startCopy(name: CopyName) {
    // As `npm start` runs it (docs/operations.md, "Runtime").
    const proc = this.spawn(name, process.execPath, ["--max-semi-space-size=16", "server/index.js"], {
      ...this.sharedEnv(),
      PORT: String(this.ports[name]),
      DATA_DIR: path.join(this.dir, `data-${name}`),
      INSTANCE_ID: `copy-${name}`,
    });
    const failed = proc.exited.then((code) => {
      throw new Error(`copy ${name} exited with ${code}: ${proc.lines.slice(-20).join("\n")}`);
    });
    failed.catch(() => undefined);
    await Promise.race([
      waitFor(`copy ${name}`, async () => (await fetch(`${this.copyUrl(name)}/api/health/ready`)).ok),
      failed,
    ]);
  }

  /** Ends a copy at once, as a crash or an out-of-memory kill does. */
  async killCopy(name: CopyName) {
    const proc = this.procs[name];
    if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
      proc.child.kill("SIGKILL");
      await proc.exited;
    }
  }

  alive(name: CopyName) {
    const proc = this.procs[name];
    return Boolean(proc && proc.child.exitCode === null && proc.child.signalCode === null);
  }

  private writeNginxConfig() {
    const dir = this.dir;
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-keyout",
        path.join(dir, "tls.key"),
        "-out",
        path.join(dir, "tls.crt"),
      ],
      { stdio: "ignore" },
    );
    for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"])
      fs.mkdirSync(path.join(dir, "tmp", sub), { recursive: true });
    const location = (proto: string) => `
      location / {
        proxy_pass http://copies;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-Proto ${proto};
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Request-Id $req_id;
        proxy_next_upstream error timeout http_502 http_503;
        proxy_read_timeout 60s;
        proxy_buffering off;
      }`;
    fs.writeFileSync(
      path.join(dir, "nginx.conf"),
      `${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${this.logDir}/nginx-error.log warn;
events { worker_connections 512; }
http {
  log_format timed '$time_iso8601 $req_id $request_method $request_uri $status $upstream_addr $request_time';
  access_log ${this.logDir}/nginx-access.log timed;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  client_max_body_size 25m;
  map $http_x_request_id $req_id { default $http_x_request_id; "" $request_id; }
  upstream copies {
    server 127.0.0.1:${this.ports.a} max_fails=1 fail_timeout=2s;
    server 127.0.0.1:${this.ports.b} max_fails=1 fail_timeout=2s;
    keepalive 16;
  }
  server { listen 127.0.0.1:${this.ports.proxy}; ${location("$scheme")} }
  server {
    listen 127.0.0.1:${this.ports.tls} ssl;
    ssl_certificate ${dir}/tls.crt;
    ssl_certificate_key ${dir}/tls.key;
    ${location("https")}
  }
}
`,
    );
  }

  /** The proxy comes (back): for the browser, the network is there. */
  async proxyUp() {
    this.spawn(
      "nginx",
      fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx",
      [
        "-p",
        this.dir,
        "-c",
        path.join(this.dir, "nginx.conf"),
        "-e",
        path.join(this.logDir, "nginx-error.log"),
        "-g",
        "daemon off;",
      ],
      {
        PATH: process.env.PATH ?? "",
      },
    );
    await waitFor("nginx", async () => (await fetch(`${this.url}/api/health/live`)).ok, 15_000);
  }

  /** The proxy goes away: for the browser, the network is gone (connections refused). */
  async proxyDown() {
    const proc = this.procs.nginx;
    if (!proc || proc.child.exitCode !== null) return;
    proc.child.kill("SIGTERM");
    await proc.exited;
  }

  /** Cuts every connection the copies hold to the database, as a failover or a network blip does. */
  async dropDatabaseConnections() {
    return adminQuery<{ pid: number }>(
      "select pg_terminate_backend(pid) as pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [this.database],
    );
  }

  /** A query on the app's database. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
    return adminQuery<T>(text, values, this.databaseUrl);
  }

  async stop() {
    for (const proc of Object.values(this.procs)) {
      if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill("SIGKILL");
        await proc.exited;
      }
    }
    await adminQuery(`drop database if exists "${this.database}" with (force)`).catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
