import fs from "node:fs";
import https from "node:https";
import { caller, signIn } from "./client";
import { expect, test } from "./fixture";
import type { Topology } from "./topology";

/**
 * Bodies over their limit beside ordinary traffic, through https nginx with kept connections to the copies
 * (keepalive 16, max_fails=1): each refusal must leave its connection usable, or nginx answers the next request
 * on it 502 and marks the copy down, and two such refusals take both copies out of service for everyone.
 */

const agent = new https.Agent({ keepAlive: true, maxSockets: 4, rejectUnauthorized: false });

function send(
  topology: Topology,
  method: string,
  path: string,
  opts: { body?: Buffer; headers?: Record<string, string> } = {},
) {
  return new Promise<number>((resolve) => {
    const req = https.request(
      `${topology.tlsUrl}${path}`,
      {
        method,
        agent,
        headers: {
          origin: topology.tlsUrl,
          ...(opts.body ? { "content-length": opts.body.length } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    // A connection cut before an answer counts as what nginx would have said for it.
    req.on("error", () => resolve(-1));
    req.end(opts.body);
  });
}

const oversizedJson = Buffer.from(
  JSON.stringify({ PatientIds: Array.from({ length: 300_000 }, () => "A") }).padEnd(1_200_017, " "),
);

test("oversized bodies beside ordinary traffic: refused 413, and nobody gets a 502", async ({ topology }) => {
  test.setTimeout(180_000);
  const errorLog = `${topology.logDir}/nginx-error.log`;
  const errorsFrom = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, "utf8").length : 0;
  const cookie = await signIn(topology.url, "admin");
  const surveys = await caller(topology.url, cookie)("GET", "/surveys");
  const surveyId = surveys.Data[0].Id as number;
  const json = { "content-type": "application/json" };

  // Another person works all along: lists and a small write, over and over.
  const ordinary: number[] = [];
  let working = true;
  const other = (async () => {
    while (working) {
      ordinary.push(await send(topology, "GET", "/api/surveys", { headers: { cookie } }));
      ordinary.push(
        await send(topology, "POST", "/api/users/current/culture?culture=de-DE", {
          headers: { cookie },
          body: Buffer.alloc(0),
        }),
      );
    }
  })();

  const refused: number[] = [];
  const small: number[] = [];
  // Signed in: each oversized post followed by two small ones on the same kept connections.
  for (let i = 0; i < 10; i++) {
    refused.push(
      await send(topology, "POST", `/api/statistics/${surveyId}`, {
        headers: { ...json, cookie },
        body: oversizedJson,
      }),
    );
    for (let j = 0; j < 2; j++) {
      small.push(
        await send(topology, "POST", "/api/users/current/culture?culture=de-DE", {
          headers: { cookie },
          body: Buffer.alloc(0),
        }),
      );
    }
  }
  // Without credentials, one a fifth of a second.
  for (let i = 0; i < 10; i++) {
    refused.push(await send(topology, "POST", `/api/statistics/${surveyId}`, { headers: json, body: oversizedJson }));
    await new Promise((r) => setTimeout(r, 200));
  }
  // An upload over its limit (under nginx's client_max_body_size) and a page's form over its limit.
  refused.push(
    await send(topology, "POST", "/api/file-attachments/upload", {
      headers: { cookie, "content-type": "multipart/form-data; boundary=x" },
      body: Buffer.alloc(21_500_000, 0x61),
    }),
  );
  refused.push(
    await send(topology, "POST", "/language", {
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: Buffer.from(`locale=de-DE&pad=${"a".repeat(3_100_000)}`),
    }),
  );
  working = false;
  await other;

  expect(refused).toEqual(Array(refused.length).fill(413));
  expect(small).toEqual(Array(small.length).fill(204));
  expect(ordinary.length).toBeGreaterThan(20);
  expect(ordinary.filter((s) => s !== 200 && s !== 204)).toEqual([]);
  const errors = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, "utf8").slice(errorsFrom) : "";
  expect(errors).not.toMatch(/prematurely closed|no live upstreams/);
  expect(topology.alive("a") && topology.alive("b")).toBe(true);
});
