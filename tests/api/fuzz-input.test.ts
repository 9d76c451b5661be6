import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "~/domain/errors";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi } from "../support/api";
import { dialects } from "../support/databases";
import { endpoints, send, splitRoute, type Probe } from "./endpoint-table";
import { buildWorld, type World } from "./endpoint-world";

/**
 * Property-based fuzzing of every endpoint's path parameters, query and body. Each run starts from the
 * endpoint's valid request (the endpoint table) and breaks one part of it; whatever comes in, the answer
 * is never a 5xx, and a refusal is a 4xx with the { Type, Error } envelope whose Type fits the status.
 * FUZZ_RUNS sets the runs per endpoint (default 25).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

const specials = [
  0,
  -1,
  -0.5,
  1.005,
  2_147_483_648,
  2 ** 53,
  1e308,
  -1e308,
  "",
  " ",
  "0",
  "-1",
  "1e3",
  "0x10",
  " 7",
  "007",
  "NaN",
  "Infinity",
  "true",
  "null",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "toString",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2f",
  "....//....//",
  "/etc/passwd%00.png",
  "%c0%af",
  "%ff%fe",
  "%2f..%2f",
  "\u0000",
  "\u202e",
  "\ud800",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  '=HYPERLINK("http://x")',
  "' OR 1=1 --",
  '"; drop table surveys; --',
  "%s%n%x",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "x".repeat(5000),
  "01.01.1900 00:00",
  "31.02.2026 10:00",
  "99.99.9999 99:99",
  "2026-01-01T00:00:00Z",
  "de-DE",
  "SHOW",
];

const scalar = fc.oneof(
  // Small ids name rows of other surveys, questions, teams and tags of the same database.
  fc.integer({ min: 1, max: 80 }),
  fc.constant(2_147_483_647),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...specials),
);
const nasty = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }) },
);

interface Mutation {
  part: "path" | "query" | "body" | "json" | "text";
  pick: number;
  op: "set" | "delete" | "add";
  value: unknown;
  text: string;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  part: fc.constantFrom("path", "query", "body", "body", "json", "text"),
  pick: fc.nat(),
  op: fc.constantFrom("set", "set", "delete", "add"),
  value: nasty,
  text: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("{", "[1,", '{"a":}', "null", '"x"', "\u0000")),
});

const asText = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

/** A path segment: every byte percent-encoded (lone surrogates become U+FFFD), or raw escapes as given. */
function segment(v: unknown): string {
  const text = asText(v);
  if (/^(%[0-9a-f]{2})+$/i.test(text)) return text;
  return [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("") || "%20";
}

/** Every place in a JSON value, as a list of keys from the root (the root itself is []). */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...places(v, [...at, i])));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...places(v, [...at, k]));
  }
  return out;
}

function changeAt(root: unknown, at: (string | number)[], op: Mutation["op"], value: unknown): unknown {
  if (at.length === 0) return op === "delete" ? undefined : value;
  const copy: unknown = structuredClone(root);
  let parent = copy as Record<string | number, unknown>;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const key = at[at.length - 1];
  if (op === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (op === "add" && parent && typeof parent === "object" && !Array.isArray(parent)) {
    parent[`${String(key)}_extra`] = value;
  } else parent[key] = value;
  return copy;
}

/** The probe with one part broken; `raw` when the body is sent as text. */
function mutate(
  route: string,
  seed: Probe,
  given: Mutation,
): { probe: Probe; raw?: { body: string; contentType: string } } {
  const { method, path } = splitRoute(route);
  // A GET carries no body: its body mutations go to the query.
  const m: Mutation = method === "GET" && given.part !== "path" ? { ...given, part: "query" } : given;
  const pattern = path.split("/");
  const segments = seed.path.split("/");
  const params = pattern.flatMap((s, i) => (s.startsWith(":") ? [i] : []));
  if (m.part === "path" && params.length > 0) {
    const i = params[m.pick % params.length];
    const copy = [...segments];
    copy[i] = segment(m.value);
    return { probe: { ...seed, path: copy.join("/") } };
  }
  if (m.part === "query" || (m.part === "path" && params.length === 0)) {
    const query = { ...seed.query };
    const keys = Object.keys(query);
    const key = m.op === "add" || keys.length === 0 ? `k${m.pick % 5}` : keys[m.pick % keys.length];
    if (m.op === "delete") delete query[key];
    else query[key] = asText(m.value);
    return { probe: { ...seed, query } };
  }
  if (m.part === "text") {
    return { probe: seed, raw: { body: m.text, contentType: m.pick % 3 === 0 ? "text/plain" : "application/json" } };
  }
  if (m.part === "json" || seed.body === undefined) return { probe: { ...seed, form: undefined, body: m.value } };
  const all = places(seed.body);
  return { probe: { ...seed, body: changeAt(seed.body, all[m.pick % all.length], m.op, m.value) } };
}

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("fuzzing every endpoint on %s", (kind) => {
  let w: World;
  // Every seed is made before any fuzzing: a mutated id may land on any row of the world (publish the
  // Draft survey, delete its question), and a seed made afterwards would then fail to set itself up.
  const seeds = new Map<string, Probe>();
  beforeAll(async () => {
    w = await buildWorld(await startApi(kind, { idp }));
    for (const e of endpoints) seeds.set(e.route, await e.probe(w));
  });
  afterAll(async () => {
    await w?.api.close();
  });

  for (const e of endpoints) {
    it(`${e.route} refuses what it cannot take with a 4xx envelope`, async () => {
      const { method } = splitRoute(e.route);
      const seed = seeds.get(e.route)!;
      const auth = { authorization: `Bearer ${w.tokens.admin}` };
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const { probe, raw } = mutate(e.route, seed, m);
          const res = await send(w, method, probe, auth, raw);
          const text = await res.text();
          const where =
            `${res.status} ${probe.path} ${JSON.stringify(probe.query ?? {})} ${raw?.body ?? JSON.stringify(probe.body) ?? ""}`.slice(
              0,
              600,
            );
          expect(res.status, `${where}\n${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            const body = JSON.parse(text) as { Type: string; Error: string };
            expect(typeof body.Type, where).toBe("string");
            expect(typeof body.Error, where).toBe("string");
            expect(errorStatus[body.Type as keyof typeof errorStatus], `${body.Type} for ${where}`).toBe(res.status);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
