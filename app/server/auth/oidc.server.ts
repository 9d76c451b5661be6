import { Authenticator } from "remix-auth";
import { CodeChallengeMethod, OAuth2Strategy } from "remix-auth-oauth2";
import type { Identity } from "~/domain/user";
import { getContext } from "~/server/context.server";
import { localeFromRequest } from "~/server/i18n.server";
import { readOrCreateSecret } from "~/server/secrets.server";
import { assertAnswering, discover, type Discovery } from "./discovery.server";

export interface SignInResult {
  identity: Identity;
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  accessTokenExpiresAt: number;
}

/** The sign-in state cookie (PKCE verifier and state), only for the sign-in's own two requests. */
export const STATE_COOKIE = "sv_oauth";
const STATE_COOKIE_PATH = "/authentication";

/** Adds the language of the page, so the provider's login page speaks it too. */
class OidcStrategy extends OAuth2Strategy<SignInResult> {
  protected authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    params.set("ui_locales", localeFromRequest(request));
    // A silent sign-in (a device back online whose session lapsed) must not show the provider's pages.
    if (new URL(request.url).searchParams.get("prompt") === "none") params.set("prompt", "none");
    return params;
  }

  /**
   * Renews the tokens without naming a scope: the provider then grants what the sign-in granted
   * (RFC 6749, section 6). Naming the sign-in's requested scopes again fails with invalid_scope wherever
   * the provider granted fewer (offline_access, typically), which signed everyone out at the first renewal.
   */
  refreshToken(refreshToken: string) {
    return this.client.refreshAccessToken(this.options.tokenEndpoint.toString(), refreshToken, []);
  }

  /**
   * The address of a signing's fresh sign-in (docs/decisions/029-signed-close.md), by standard parameters
   * only: prompt=login and max_age=0 make the provider ask for the password again even while its own session
   * lasts, and put auth_time in the ID token; the nonce binds the ID token to this signing. Only `openid`
   * is asked for: the signing needs who signed in and when, no access to the API.
   */
  signingUrl(opts: {
    state: string;
    codeVerifier: string;
    nonce: string;
    locale: string;
    /** The signed-in person's user name: the provider asks for their password (login_hint). */
    loginHint: string;
    /**
     * What is signed: the embedded provider's password page names it (other providers ignore it). None for a
     * fresh sign-in that signs nothing (the way back from a hand-over, docs/decisions/058-hand-over.md).
     */
    signing?: { patientId: string; surveyTitle: string; surveyLanguage: string; meaning: string };
  }): string {
    const url = this.client.createAuthorizationURLWithPKCE(
      this.options.authorizationEndpoint.toString(),
      opts.state,
      CodeChallengeMethod.S256,
      opts.codeVerifier,
      ["openid"],
    );
    url.searchParams.set("prompt", "login");
    url.searchParams.set("max_age", "0");
    url.searchParams.set("nonce", opts.nonce);
    url.searchParams.set("ui_locales", opts.locale);
    url.searchParams.set("login_hint", opts.loginHint);
    if (opts.signing) {
      url.searchParams.set("signing_patient", opts.signing.patientId);
      url.searchParams.set("signing_survey", opts.signing.surveyTitle);
      url.searchParams.set("signing_language", opts.signing.surveyLanguage);
      url.searchParams.set("signing_meaning", opts.signing.meaning);
    }
    return url.toString();
  }

  /** Exchanges a signing's authorization code for its tokens (the ID token is what the signing reads). */
  signingTokens(code: string, codeVerifier: string) {
    return this.validateAuthorizationCode(code, codeVerifier);
  }

  /** Revokes a token, quietly: the signing's own sign-in leaves no grant behind that the app would use. */
  async revokeQuietly(token: string): Promise<void> {
    if (!this.options.tokenRevocationEndpoint) return;
    await this.revokeToken(token).catch(() => undefined);
  }
}

interface Oidc {
  /** The sign-in for a request: its state cookie is Secure when the request came over https. */
  authenticatorFor(request: Request): Authenticator<SignInResult>;
  strategy: OidcStrategy;
}

function build(meta: Discovery): Oidc {
  const { env, verifyToken } = getContext();
  const make = (secure: boolean) =>
    new OidcStrategy(
      {
        cookie: {
          name: STATE_COOKIE,
          path: STATE_COOKIE_PATH,
          sameSite: "Lax",
          httpOnly: true,
          ...(secure ? { secure: true as const } : {}),
        },
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET ?? embeddedClientSecret(),
        authorizationEndpoint: meta.authorization_endpoint,
        tokenEndpoint: meta.token_endpoint,
        tokenRevocationEndpoint: meta.revocation_endpoint,
        redirectURI: `${env.publicUrl}/authentication/login-callback`,
        scopes: ["openid", "profile", "offline_access", env.OIDC_API_SCOPE],
      },
      async ({ tokens }) => {
        const accessToken = tokens.accessToken();
        // The access token is what the API checks: its claims are the person as the API sees them.
        const identity = await verifyToken(accessToken);
        return {
          identity,
          accessToken,
          refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : undefined,
          idToken: "id_token" in tokens.data ? tokens.idToken() : undefined,
          accessTokenExpiresAt: tokens.accessTokenExpiresAt().getTime(),
        };
      },
    );
  const authenticators = [false, true].map((secure) => {
    const authenticator = new Authenticator<SignInResult>();
    authenticator.use(make(secure), "oidc");
    return authenticator;
  });
  return {
    authenticatorFor: (request) => authenticators[new URL(request.url).protocol === "https:" ? 1 : 0]!,
    strategy: make(false),
  };
}

/** The sign-in, made from the provider's discovery document; made again when a refreshed document differs. */
let built: { meta: Discovery; oidc: Oidc } | undefined;

export async function getOidc(): Promise<Oidc> {
  const meta = await discover(getContext().env.issuer);
  if (built?.meta !== meta) built = { meta, oidc: build(meta) };
  return built.oidc;
}

/**
 * Set-Cookie headers that remove the sign-in's state cookies the request carries once the sign-in has used
 * them (one per sign-in started: "sv_oauth:<id>").
 */
export function clearStateCookies(request: Request): string[] {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((pair) => pair.trim().split("=")[0] ?? "")
    .filter((name) => name === STATE_COOKIE || name.startsWith(`${STATE_COOKIE}:`));
  return [...new Set(names)].map(
    (name) => `${name}=; Path=${STATE_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`,
  );
}

/**
 * Throws unless the provider answered a moment ago or answers now (discovery.server.ts, assertAnswering). Run
 * before sending a person there, so that a provider that went down shows the app's own error page instead
 * of the browser's connection error; a flood of sign-ins costs the provider one request per few seconds.
 */
export async function assertProviderReachable(timeoutMs = 3000): Promise<void> {
  await assertAnswering(getContext().env.issuer, timeoutMs);
}

/** The client secret shared with the embedded provider when no external provider is configured. */
export function embeddedClientSecret(): string {
  return readOrCreateSecret(getContext().env.DATA_DIR, "idp-client-secret");
}

/** Gets fresh tokens with the refresh token; throws when the provider refuses. */
export async function refreshTokens(refreshToken: string): Promise<Omit<SignInResult, "idToken">> {
  const { strategy } = await getOidc();
  const { verifyToken } = getContext();
  const tokens = await strategy.refreshToken(refreshToken);
  const accessToken = tokens.accessToken();
  return {
    identity: await verifyToken(accessToken),
    accessToken,
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : refreshToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt().getTime(),
  };
}

/** Where the browser goes to end the session at the provider too. */
export async function endSessionUrl(idToken: string | undefined): Promise<string | null> {
  const { env } = getContext();
  const meta = await discover(env.issuer).catch(() => null);
  if (!meta?.end_session_endpoint) return null;
  const url = new URL(meta.end_session_endpoint);
  if (idToken) url.searchParams.set("id_token_hint", idToken);
  url.searchParams.set("client_id", env.OIDC_CLIENT_ID);
  url.searchParams.set("post_logout_redirect_uri", `${env.publicUrl}/surveys`);
  return url.toString();
}

/** The provider's terms page, to which a person who has not accepted the terms is sent. */
export function termsUrl(returnTo: string): string {
  const { env } = getContext();
  const url = new URL(env.OIDC_TERMS_URL ?? `${env.issuer}/terms`);
  url.searchParams.set("return_to", returnTo);
  return url.toString();
}
