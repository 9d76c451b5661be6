import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createContext, type AppContext } from "~/server/context.server";
import { parseEnv } from "~/server/env.server";
import { newBrowser } from "~/server/idp/test-client.server";
import { CLIENT_SECRET, createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { openTestDb, type DialectName, type TestDb } from "./databases";
import { checkDocumented } from "./documented";

export interface ApiHarness {
  ctx: AppContext;
  idp: TestIdp;
  testDb: TestDb;
  /** A fresh access token of a demo account, through the provider's real sign-in. */
  token(username: string): Promise<string>;
  /** Calls the API in-process, as the pages do. */
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Calls the API as a demo account (null: without credentials) and reads the JSON answer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read any answer shape
  json(method: string, path: string, body?: unknown, who?: string | null): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The API over a fresh database of the given kind, trusting a freshly started embedded provider. */
export async function startApi(
  kind: DialectName,
  shared?: { idp?: TestIdp; env?: Record<string, string> },
): Promise<ApiHarness> {
  const idp = shared?.idp ?? (await createTestIdp());
  const testDb = await openTestDb(kind);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "survey-api-"));
  const env = parseEnv({
    DATA_DIR: dataDir,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    PUBLIC_URL: "http://localhost:3000",
    LOG_LEVEL: "silent",
    ...shared?.env,
  });
  const ctx = createContext(env, testDb.db);
  // Every error answer must be one the OpenAPI document lists for its operation.
  const request = ctx.api.request.bind(ctx.api);
  ctx.api.request = (async (input: Parameters<typeof request>[0], init?: RequestInit, ...rest: unknown[]) => {
    const res = await (request as (...args: unknown[]) => Response | Promise<Response>)(input, init, ...rest);
    await checkDocumented(input, init, res);
    return res;
  }) as typeof ctx.api.request;
  const tokens = new Map<string, string>();
  const harness: ApiHarness = {
    ctx,
    idp,
    testDb,
    async token(username) {
      let token = tokens.get(username);
      if (!token) {
        token = (await idp.signIn(newBrowser(), username)).access_token;
        tokens.set(username, token);
      }
      return token;
    },
    async json(method, path, body, who = "editor") {
      const token = who === null ? undefined : await harness.token(who);
      const res = await harness.call(method, path, { token, body });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        headers["content-type"] ??= "application/json";
        body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      }
      return Promise.resolve(ctx.api.request(`http://localhost:3000/api${path}`, { method, headers, body }));
    },
    async close() {
      await testDb.cleanup();
      await ctx.attachments.close();
      if (!shared?.idp) await idp.dispose();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
