import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_BODY_LIMIT, JSON_BODY_LIMIT, UPLOAD_BODY_LIMIT, UPLOAD_PATH } from "~/server/api/body.server";
import { onOneConnection, rawRequest } from "./raw-http";
import { built, killHard, serverEnv, signIn, startHealthy, type Running } from "./real-server";

/**
 * A refused body must leave the connection able to answer the next request: a proxy keeps its connections to
 * the copies and sends the next person's request on the one that carried the refused body. Each case sends a
 * body the server answers without reading, then a small request on the same connection 300 ms later.
 */

const FORWARDED = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "surveys.example" };
const JSON_TYPE = { "Content-Type": "application/json" };

function bigJson(bytes: number): Buffer {
  const ids = JSON.stringify({ PatientIds: Array.from({ length: Math.ceil(bytes / 4) }, () => "A") });
  return Buffer.from(ids.padEnd(bytes, " "));
}

describe("bodies the server refuses or does not read", () => {
  let server: Running;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(await serverEnv({ DEMO_DATA: "0", TRUST_PROXY: "1", LOG_LEVEL: "info" }));
    port = Number(server.env.PORT);
    cookie = await signIn(server.url, "editor");
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  /** A small request after the refused one, on the same connection. */
  const next = (headers: Record<string, string>) =>
    rawRequest("POST", "/api/users/current/culture?culture=de-DE", { ...headers, "Content-Length": "0" });

  describe.each([
    ["behind a proxy (forwarded headers)", FORWARDED],
    ["reached directly", {} as Record<string, string>],
  ])("%s", (_name, via) => {
    it("answers a JSON body over the limit 413, and the next request on the connection", async () => {
      const refused = rawRequest(
        "POST",
        "/api/statistics/8",
        { ...via, ...JSON_TYPE },
        bigJson(JSON_BODY_LIMIT + 200_017),
      );
      const { answers, closed } = await onOneConnection(port, [refused, next(via)]);
      expect(answers.map((a) => a.status)).toEqual([413, 401]);
      expect(JSON.parse(answers[0]!.body)).toEqual({ Type: "PAYLOAD_TOO_LARGE", Error: expect.any(String) });
      expect(answers[0]!.headers.connection).not.toBe("close");
      expect(closed).toBe(false);
    });

    it("the same for a signed-in person: the next request is theirs and succeeds", async () => {
      const refused = rawRequest(
        "POST",
        "/api/statistics/8",
        { ...via, ...JSON_TYPE, Cookie: cookie, Origin: "https://surveys.example" },
        bigJson(JSON_BODY_LIMIT + 200_017),
      );
      const small = next({
        ...via,
        Cookie: cookie,
        Origin: via["X-Forwarded-Host"] ? "https://surveys.example" : server.url,
      });
      const { answers } = await onOneConnection(port, [refused, small]);
      expect(answers.map((a) => a.status)).toEqual([413, 204]);
    });

    it("answers an upload over its limit 413, and the next request", async () => {
      const refused = rawRequest(
        "POST",
        UPLOAD_PATH,
        { ...via, "Content-Type": "multipart/form-data; boundary=x" },
        Buffer.alloc(UPLOAD_BODY_LIMIT + 1000, 0x61),
      );
      const { answers } = await onOneConnection(port, [refused, next(via)], { waitMs: 5000 });
      expect(answers.map((a) => a.status)).toEqual([413, 401]);
    });

    it("answers a page's form over its limit 413 in both languages, and the next request", async () => {
      const form = Buffer.from(`locale=de-DE&pad=${"a".repeat(IMAGE_BODY_LIMIT)}`);
      const refused = rawRequest(
        "POST",
        "/language",
        { ...via, "Content-Type": "application/x-www-form-urlencoded" },
        form,
      );
      const { answers } = await onOneConnection(port, [refused, next(via)]);
      expect(answers.map((a) => a.status)).toEqual([413, 401]);
      expect(answers[0]!.body).toContain("Die Anfrage ist zu groß (höchstens 3 MB)");
      expect(answers[0]!.body).toContain("The request is too large (at most 3 MB)");
    });

    it("hands the link page's form over its limit to the page without its body, and the next request", async () => {
      const refused = rawRequest(
        "POST",
        "/l/fill",
        {
          ...via,
          "Content-Type": "multipart/form-data; boundary=x",
          // The page's own origin: as the proxy reports it, or the Host the request names.
          Origin: via["X-Forwarded-Host"] ? "https://surveys.example" : "http://localhost",
        },
        Buffer.alloc(UPLOAD_BODY_LIMIT + 1000, 0x61),
      );
      const { answers } = await onOneConnection(port, [refused, next(via)], { waitMs: 5000 });
      // The page answers, not the server's plain refusal: without a link it goes to the page that says so.
      expect(answers.map((a) => a.status)).toEqual([302, 401]);
      expect(answers[0]!.headers.location).toMatch(/\/l\/fill$/);
      expect(answers[0]!.body).not.toContain("Die Anfrage ist zu groß");
    });

    it("answers a page's form without a declared length 411, and the next request", async () => {
      const refused = rawRequest(
        "POST",
        "/language",
        { ...via, "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
        "locale=en-US",
      );
      const { answers } = await onOneConnection(port, [refused, next(via)]);
      expect(answers.map((a) => a.status)).toEqual([411, 401]);
    });

    it("answers a chunked JSON body that grows over the limit 413, and the next request", async () => {
      const refused = rawRequest(
        "POST",
        "/api/surveys",
        {
          ...via,
          ...JSON_TYPE,
          "Transfer-Encoding": "chunked",
          Cookie: cookie,
          Origin: via["X-Forwarded-Host"] ? "https://surveys.example" : server.url,
        },
        bigJson(JSON_BODY_LIMIT + 50_000),
      );
      const { answers } = await onOneConnection(port, [refused, next(via)]);
      expect(answers.map((a) => a.status)).toEqual([413, 401]);
    });

    it("answers a body within the limit that nobody reads (refused sign-in), and the next request", async () => {
      const unread = rawRequest(
        "POST",
        "/api/statistics/8",
        { ...via, "Content-Type": "text/plain" },
        Buffer.alloc(600_000, 0x62),
      );
      const page = rawRequest(
        "POST",
        "/surveys",
        { ...via, "Content-Type": "application/x-www-form-urlencoded" },
        `intent=create&pad=${"c".repeat(600_000)}`,
      );
      const { answers } = await onOneConnection(port, [unread, page, next(via)]);
      expect(answers.map((a) => a.status)).toEqual([401, expect.any(Number), 401]);
      expect(answers[1]!.status).toBeLessThan(500);
    });
  });

  it("closes the connection on a refusal of a body too large to read and drop (over 64 MB), saying so", async () => {
    const head = rawRequest(
      "POST",
      "/api/statistics/8",
      { ...JSON_TYPE, "Content-Length": String(100 * 1024 * 1024) },
      "{",
    );
    const { answers, closed } = await onOneConnection(port, [head], { waitMs: 3000, untilClosed: true });
    expect(answers.map((a) => a.status)).toEqual([413]);
    expect(answers[0]!.headers.connection).toBe("close");
    expect(closed).toBe(true);
  });

  it("logs each refusal as one JSON request line with its status", () => {
    const lines = server.out.flatMap((line) => {
      try {
        return [JSON.parse(line) as { msg: string; status?: number; path?: string }];
      } catch {
        return [];
      }
    });
    expect(lines.filter((l) => l.msg === "request" && l.status === 413).length).toBeGreaterThanOrEqual(9);
    expect(lines.some((l) => l.msg === "request" && l.status === 411 && l.path === "/language")).toBe(true);
  });
});
