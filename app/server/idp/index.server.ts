import { createServer, type Server } from "node:http";
import path from "node:path";
import { TermsStore } from "./accounts.server";
import { loadOrCreateKeys } from "./keys.server";
import { createPageRoutes } from "./pages.server";
import { createProvider, originsOf } from "./provider.server";
import { StateStore } from "./state.server";

export { demoAccounts } from "./accounts.server";
export type { DemoAccount, IdpLocale } from "./accounts.server";
export { apiResourceIndicator, COOKIE_NAMES } from "./provider.server";

export interface EmbeddedIdpOptions {
  /** The issuer identifier, an origin such as "http://localhost:3001". */
  issuer: string;
  port: number;
  /** The setting the port comes from, named when the port is taken (IDP_PORT, or OIDC_ISSUER standalone). */
  portSetting: string;
  host?: string;
  /**
   * Kept here: the signing keys (JWKS), cookie keys, terms-of-service acceptances and the
   * provider's state (sign-in sessions, grants, refresh tokens), so restarts keep them.
   */
  dataDir: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  apiAudience: string;
  apiScope: string;
  accessTokenTtlSeconds?: number;
}

export interface EmbeddedIdp {
  issuer: string;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string | undefined, setting: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE" || error.code === "EACCES"
          ? new Error(
              `Invalid configuration:\n  ${setting}: the embedded identity provider cannot listen on port ${port} (${error.code === "EADDRINUSE" ? "in use by another program" : "not allowed"})`,
            )
          : error,
      );
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/**
 * Starts the embedded OpenID provider (authorization code with PKCE, refresh tokens, JWT access
 * tokens for the API, RP-initiated logout) with the demo accounts, on its own port.
 */
export async function startEmbeddedIdp(opts: EmbeddedIdpOptions): Promise<EmbeddedIdp> {
  const parsed = new URL(opts.issuer);
  if (parsed.pathname !== "/" || parsed.search || parsed.hash) {
    throw new Error(`The embedded identity provider's issuer must be an origin without a path: ${opts.issuer}`);
  }
  const issuer = parsed.origin;
  const keys = await loadOrCreateKeys(opts.dataDir);
  const terms = await TermsStore.open(opts.dataDir);
  const state = await StateStore.open(path.join(opts.dataDir, "idp-state.json"));

  const provider = createProvider({
    issuer,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    redirectUris: opts.redirectUris,
    postLogoutRedirectUris: opts.postLogoutRedirectUris,
    apiAudience: opts.apiAudience,
    apiScope: opts.apiScope,
    accessTokenTtlSeconds: opts.accessTokenTtlSeconds ?? 300,
    keys,
    terms,
    state,
  });
  provider.on("server_error", (_ctx, error) => {
    console.error("[idp] server error:", error);
  });

  const returnOrigins = originsOf(opts.redirectUris);
  const pages = createPageRoutes({
    provider,
    terms,
    clientId: opts.clientId,
    returnOrigins,
    formTargets: originsOf([...opts.redirectUris, ...opts.postLogoutRedirectUris]),
    appHome: `${returnOrigins[0] ?? issuer}/`,
    csrfKey: keys.cookieKeys[0]!,
  });
  const oidc = provider.callback();

  const server = createServer((req, res) => {
    pages(req, res)
      .then((handled) => {
        if (!handled) oidc(req, res);
      })
      .catch((error: unknown) => {
        console.error("[idp] page error:", error);
        if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader("Content-Type", "text/plain; charset=utf-8");
        }
        res.end("Internal Server Error");
      });
  });
  await listen(server, opts.port, opts.host, opts.portSetting);

  let closing: Promise<void> | undefined;
  return {
    issuer,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else state.flush().then(resolve, reject);
        });
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
      return closing;
    },
  };
}
