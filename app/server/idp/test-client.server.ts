import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Helpers for driving the embedded provider over HTTP in tests, like a browser and an app would. */

/** The first port the system hands out for outgoing connections (and for a listen on port 0). */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 20_100 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A port a test's server can listen on. It is taken below the range the system hands out for outgoing
 * connections: a port from that range (what a listen on port 0 gives) can be taken, between this check and the
 * server's listen, by any connection the tests running alongside open, and the server then fails to start.
 */
export async function freePort(): Promise<number> {
  const low = 20_000;
  const span = ephemeralStart() - low;
  for (let tries = 0; tries < 50; tries++) {
    const port = low + Math.floor(Math.random() * span);
    if (await listens(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${low + span}`);
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/** A minimal cookie jar that honours paths and deletions, enough for one host. */
export class CookieJar {
  private cookies: StoredCookie[] = [];

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((p) => p.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = "/";
      let expired = false;
      for (const attribute of attributes) {
        const [key = "", val = ""] = attribute.split("=");
        if (key.toLowerCase() === "path") path = val || "/";
        if (key.toLowerCase() === "expires" && Date.parse(val) <= Date.now()) expired = true;
        if (key.toLowerCase() === "max-age" && Number(val) <= 0) expired = true;
      }
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired && value !== "") this.cookies.push({ name, value, path });
    }
  }

  header(url: string): string {
    const { pathname } = new URL(url);
    return this.cookies
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  names(): string[] {
    return this.cookies.map((c) => c.name);
  }
}

export interface Browser {
  jar: CookieJar;
  request(url: string, init?: RequestInit): Promise<Response>;
}

export function newBrowser(acceptLanguage?: string): Browser {
  const jar = new CookieJar();
  return {
    jar,
    async request(url, init = {}) {
      const headers = new Headers(init.headers);
      const cookie = jar.header(url);
      if (cookie) headers.set("cookie", cookie);
      if (acceptLanguage) headers.set("accept-language", acceptLanguage);
      const response = await fetch(url, { ...init, headers, redirect: "manual" });
      jar.store(response);
      return response;
    },
  };
}

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

/** The value of a named form field in a page (hidden inputs, etc.). */
export function formField(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  return input ? /value="([^"]*)"/.exec(input)?.[1]?.replace(/&amp;/g, "&") : undefined;
}

export function formAction(html: string): string | undefined {
  return /<form[^>]*action="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
}

/**
 * Follows redirects by hand from `url`. When a page with a sign-in form appears, `onPage`
 * decides what to post (or returns undefined to stop there). Ends at the client's redirect URI.
 */
export async function follow(
  browser: Browser,
  url: string,
  stopPrefix: string,
  onPage: (html: string, url: string) => URLSearchParams | undefined,
): Promise<{ final: string; page?: { html: string; status: number; url: string } }> {
  let next = url;
  let init: RequestInit | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(stopPrefix)) return { final: next };
    const response = await browser.request(next, init);
    init = undefined;
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      next = new URL(location, next).href;
      continue;
    }
    const html = await response.text();
    const body = onPage(html, next);
    if (!body) return { final: next, page: { html, status: response.status, url: next } };
    next = new URL(formAction(html) ?? next, next).href;
    init = { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } };
  }
  throw new Error("too many redirects");
}
