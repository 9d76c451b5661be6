import Provider, {
  errors,
  type Account,
  type AccessToken,
  type AuthorizationCode,
  type ClientCredentials,
  type ErrorOut,
  type KoaContextWithOIDC,
  type Client,
  type ResourceServer,
} from "oidc-provider";
import { findAccount, personClaims, scopeClaims, type TermsStore } from "./accounts.server";
import { SUPPORTED_LOCALES, pickLocale, textsFor } from "./i18n.server";
import type { IdpKeys } from "./keys.server";
import { StateAdapter, type StateStore } from "./state.server";
import { contentSecurityPolicy, logoutPage, messagePage, newNonce } from "./views.server";

export interface ProviderOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  apiAudience: string;
  apiScope: string;
  accessTokenTtlSeconds: number;
  keys: IdpKeys;
  terms: TermsStore;
  state: StateStore;
}

/** Cookie names of the provider; distinct from the app's, which shares the host on another port. */
export const COOKIE_NAMES = {
  session: "idp_session",
  interaction: "idp_interaction",
  resume: "idp_interaction_resume",
} as const;

const OIDC_SCOPES = ["openid", "profile", "email", "offline_access"];
const REFRESH_TOKEN_TTL = 24 * 60 * 60;
const SESSION_TTL = 12 * 60 * 60;

/**
 * The resource indicator (an absolute URI, as RFC 8707 requires) under which the survey API is
 * known to the provider. Access tokens for it carry the plain audience, e.g. "survey-api".
 */
export function apiResourceIndicator(apiAudience: string): string {
  return URL.canParse(apiAudience) ? apiAudience : `urn:${apiAudience}`;
}

export function originsOf(uris: readonly string[]): string[] {
  return [...new Set(uris.map((u) => new URL(u).origin))];
}

function uiLocale(ctx: KoaContextWithOIDC) {
  return pickLocale(ctx.oidc?.params?.ui_locales, ctx.get("accept-language"));
}

function sendPage(ctx: KoaContextWithOIDC, render: (nonce: string) => string, formTargets: string[]) {
  const nonce = newNonce();
  ctx.type = "html";
  ctx.set("Content-Security-Policy", contentSecurityPolicy(nonce, formTargets));
  ctx.body = render(nonce);
}

export function createProvider(opts: ProviderOptions): Provider {
  const resource = apiResourceIndicator(opts.apiAudience);
  const appOrigins = originsOf([...opts.redirectUris, ...opts.postLogoutRedirectUris]);
  const appHome = `${originsOf(opts.redirectUris)[0] ?? opts.issuer}/`;

  const resourceServer: ResourceServer = {
    scope: opts.apiScope,
    audience: opts.apiAudience,
    accessTokenFormat: "jwt",
    accessTokenTTL: opts.accessTokenTtlSeconds,
    jwt: { sign: { alg: "RS256" } },
  };

  const claimsOf = (accountId: string) => {
    const account = findAccount(accountId);
    return account ? personClaims(account, opts.terms.hasAccepted(accountId)) : undefined;
  };

  const provider = new Provider(opts.issuer, {
    adapter: (model: string) => new StateAdapter(model, opts.state),
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        client_name: "Survey tool",
        redirect_uris: opts.redirectUris,
        post_logout_redirect_uris: opts.postLogoutRedirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        scope: OIDC_SCOPES.join(" "),
      },
    ],
    jwks: opts.keys.jwks,
    cookies: {
      names: { ...COOKIE_NAMES },
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
      keys: opts.keys.cookieKeys,
    },
    scopes: OIDC_SCOPES,
    claims: Object.fromEntries(Object.entries(scopeClaims).map(([scope, names]) => [scope, [...names]])),
    // Release the scope's claims in the ID token too, so the app need not call userinfo.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string): Promise<Account | undefined> {
      if (!findAccount(sub)) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, ...claimsOf(sub) }),
      };
    },
    // Access tokens (JWTs for the API) carry the person's claims, read at the time of issue.
    async extraTokenClaims(_ctx: unknown, token: AccessToken | ClientCredentials) {
      return "accountId" in token && token.accountId ? claimsOf(token.accountId) : undefined;
    },
    // oidc-provider drops a requested offline_access scope unless the request also says
    // prompt=consent (as OpenID Connect Core allows). The app is a confidential first-party
    // client, so it gets a refresh token on every sign-in either way: without offline_access the
    // token ends with the provider's session (signing out revokes it); with offline_access
    // (prompt=consent, granted without a screen) it lives its own lifetime.
    async issueRefreshToken(_ctx: unknown, client: Client, source: Pick<AuthorizationCode, "scopes">) {
      if (!client.grantTypeAllowed("refresh_token")) return false;
      return source.scopes.has("offline_access") || (client.clientId === opts.clientId && source.scopes.has("openid"));
    },
    responseTypes: ["code"],
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    clientBasedCORS: (_ctx: unknown, origin: string) => appOrigins.includes(origin),
    discovery: { ui_locales_supported: [...SUPPORTED_LOCALES] },
    // An electronic signature's request names what is signed, for the password page (decision 029).
    extraParams: ["signing_patient", "signing_survey", "signing_meaning", "signing_language"],
    ttl: {
      AccessToken: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? opts.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      ClientCredentials: opts.accessTokenTtlSeconds,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      RefreshToken: REFRESH_TOKEN_TTL,
      Session: SESSION_TTL,
      Grant: 14 * 24 * 60 * 60,
      DeviceCode: 10 * 60,
      BackchannelAuthenticationRequest: 10 * 60,
      PreAuthorizedCode: 10 * 60,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: Client, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: Client) => client.clientAuthMethod !== "none",
      },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Requests that ask for the API scope get a JWT for the API; others an ID-only token.
        defaultResource: async (ctx: KoaContextWithOIDC, _client: Client, oneOf?: readonly string[]) => {
          if (oneOf) return oneOf.includes(resource) ? resource : oneOf[0];
          const scopes = String(ctx.oidc.params?.scope ?? "").split(" ");
          return scopes.includes(opts.apiScope) ? resource : undefined;
        },
        // At the token endpoint keep the granted resource, unless a narrower scope (refresh)
        // leaves the API scope out, which yields a token for the userinfo endpoint.
        useGrantedResource: async (ctx: KoaContextWithOIDC) => {
          const scope = ctx.oidc.params?.scope;
          return typeof scope !== "string" || scope.split(" ").includes(opts.apiScope);
        },
        // The API is granted with its scope only, so a token for it always names the scope.
        getResourceServerInfo: async (ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== resource && indicator !== opts.apiAudience) throw new errors.InvalidTarget();
          const scope = ctx.oidc.params?.scope;
          if (typeof scope === "string" && !scope.split(" ").includes(opts.apiScope)) {
            throw new errors.InvalidTarget(`the survey API is granted with the ${opts.apiScope} scope only`);
          }
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContextWithOIDC, form: string) {
          const locale = uiLocale(ctx);
          sendPage(ctx, (nonce) => logoutPage({ locale, nonce, form }), appOrigins);
        },
        async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          const locale = uiLocale(ctx);
          const t = textsFor(locale);
          sendPage(
            ctx,
            (nonce) =>
              messagePage({
                locale,
                nonce,
                title: t.loggedOutTitle,
                message: t.loggedOut,
                link: { href: appHome, label: t.backToApp },
              }),
            [],
          );
        },
      },
    },
    async renderError(ctx: KoaContextWithOIDC, out: ErrorOut) {
      const locale = uiLocale(ctx);
      const t = textsFor(locale);
      const details = [out.error, out.error_description].filter((d): d is string => typeof d === "string");
      sendPage(
        ctx,
        (nonce) =>
          messagePage({
            locale,
            nonce,
            title: t.errorTitle,
            message: t.errorIntro,
            details,
            link: { href: appHome, label: t.backToApp },
          }),
        [],
      );
    },
  });

  provider.proxy = new URL(opts.issuer).protocol === "https:";
  return provider;
}
