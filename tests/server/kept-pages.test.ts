import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { built, caller, killHard, serverEnv, signIn, startHealthy, type Call, type Running } from "./real-server";

/**
 * Pages kept by what they are made of (app/server/render.server.ts, RenderedPages): the production server,
 * a signed-in editor, the survey list. A page asked for again with the same data is the kept one, with
 * this request's own nonce (the one its policy header names) and form key; a change of data is seen at once.
 */

interface Page {
  html: string;
  how: string | undefined;
  nonce: string | undefined;
  formKey: string | undefined;
}

const FORM_KEY = /name="formKey" value="([0-9a-f]{32})"/g;

describe("pages kept by their data", () => {
  let server: Running;
  let cookie: string;
  let call: Call;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(await serverEnv({ DEMO_DATA: "0" }));
    cookie = await signIn(server.url, "editor");
    call = caller(server.url, cookie);
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  async function page(path: string, extraCookie = ""): Promise<Page> {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie: `${cookie}${extraCookie}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    const formKeys = [...new Set([...html.matchAll(FORM_KEY)].map((m) => m[1]))];
    expect(formKeys.length).toBeLessThanOrEqual(1);
    return { html, how: /desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1], nonce, formKey: formKeys[0] };
  }

  /** The page with its per-request values taken out. */
  const plain = (p: Page) => p.html.replaceAll(p.nonce!, "NONCE").replaceAll(p.formKey!, "FORMKEY");

  it("gives the kept page again with this request's nonce and form key, the same otherwise", async () => {
    await call("POST", "/surveys", { Title: "Kept one" });
    const first = await page("/surveys");
    const second = await page("/surveys");
    expect(first.how).toBe("rendered");
    expect(second.how).toBe("kept");
    for (const p of [first, second]) {
      expect(p.nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
      expect(p.formKey).toMatch(/^[0-9a-f]{32}$/);
      // Every script carries the nonce its response's policy names, and nothing carries another.
      const nonces = [...p.html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);
      expect(nonces.length).toBeGreaterThan(0);
      expect(new Set(nonces)).toEqual(new Set([p.nonce]));
      expect(p.html).not.toContain("\u0000");
    }
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.formKey).not.toBe(first.formKey);
    expect(plain(second)).toBe(plain(first));
  });

  it("shows a change of data at once", async () => {
    const survey = await call("POST", "/surveys", { Title: "Before the change" });
    await page("/surveys");
    expect((await page("/surveys")).how).toBe("kept");
    await call("PUT", `/surveys/${survey.Id}`, { Title: "After the change" });
    const after = await page("/surveys");
    expect(after.how).toBe("rendered");
    expect(after.html).toContain("After the change");
    expect(after.html).not.toContain("Before the change");
  });

  it("keeps a page per language and per address", async () => {
    // The language cookie as the app sets it: base64 of a JSON string.
    const inEnglish = `; sv_lng=${encodeURIComponent(Buffer.from(JSON.stringify("en-US")).toString("base64"))}`;
    const german = await page("/surveys");
    const english = await page("/surveys", inEnglish);
    expect(german.html).toContain('<html lang="de-DE"');
    expect(english.html).toContain('<html lang="en-US"');
    expect(english.how).toBe("rendered");
    expect((await page("/surveys", inEnglish)).how).toBe("kept");
    const searched = await page("/surveys?q=Kept");
    expect(searched.how).toBe("rendered");
    expect(plain(searched)).not.toBe(plain(german));
  });
});
