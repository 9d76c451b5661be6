import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { Interaction } from "oidc-provider";
import { demoAccounts, findAccount, verifyCredentials, type IdpLocale, type TermsStore } from "./accounts.server";
import { pickLocale, textsFor } from "./i18n.server";
import {
  contentSecurityPolicy,
  loginPage,
  messagePage,
  newNonce,
  termsPage,
  type SigningContext,
} from "./views.server";

export interface PageRoutesOptions {
  provider: Provider;
  terms: TermsStore;
  clientId: string;
  /** Origins the terms page may send people back to (those of the client's redirect URIs). */
  returnOrigins: string[];
  /** Origins forms may lead to through redirects (the client's redirect and logout URIs). */
  formTargets: string[];
  appHome: string;
  csrfKey: string;
}

const MAX_BODY = 16 * 1024;

class BodyTooLarge extends Error {}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  if (type !== "application/x-www-form-urlencoded") return new URLSearchParams();
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function isSessionNotFound(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === "SessionNotFound";
}

/**
 * The provider's own pages: the sign-in form of an interaction (consent is given at once for
 * the first-party client) and the terms of service. Returns false for paths it does not serve.
 */
export function createPageRoutes(opts: PageRoutesOptions) {
  const { provider, terms } = opts;

  function send(res: ServerResponse, status: number, render: (nonce: string) => string) {
    const nonce = newNonce();
    const html = render(nonce);
    res.statusCode = status;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, opts.formTargets));
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.end(html);
  }

  function sendMessage(
    res: ServerResponse,
    status: number,
    locale: IdpLocale,
    title: string,
    message: string,
    link?: { href: string; label: string },
  ) {
    send(res, status, (nonce) => messagePage({ locale, nonce, title, message, link }));
  }

  function redirect(res: ServerResponse, location: string) {
    res.statusCode = 303;
    res.setHeader("Location", location);
    res.setHeader("Cache-Control", "no-store");
    res.end();
  }

  function allowedReturnTo(value: string | null | undefined): string | undefined {
    if (!value) return undefined;
    const url = URL.parse(value);
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
    return opts.returnOrigins.includes(url.origin) ? url.href : undefined;
  }

  function csrfFor(sessionUid: string): string {
    return createHmac("sha256", opts.csrfKey).update(`terms:${sessionUid}`).digest("base64url");
  }

  function csrfMatches(sessionUid: string, given: string | null): boolean {
    const expected = Buffer.from(csrfFor(sessionUid));
    const actual = Buffer.from(given ?? "");
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  async function autoConsent(req: IncomingMessage, res: ServerResponse, details: Interaction) {
    const accountId = details.session?.accountId;
    const clientId = details.params.client_id;
    if (!accountId || clientId !== opts.clientId) {
      await provider.interactionFinished(req, res, {
        error: "access_denied",
        error_description: "consent cannot be given for this client",
      });
      return;
    }
    // What the consent prompt found missing (the provider's prompt details are not typed further).
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId });
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(" "));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /** The signing context a signing's authorization request carries (signing_patient, _survey, _meaning, _language). */
  function signingContextOf(params: Record<string, unknown>): SigningContext | undefined {
    const text = (name: string) => (typeof params[name] === "string" ? (params[name] as string).slice(0, 200) : "");
    const [patient, survey, meaning] = [text("signing_patient"), text("signing_survey"), text("signing_meaning")];
    return patient && meaning ? { patient, survey, meaning, language: text("signing_language") } : undefined;
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const acceptLanguage = req.headers["accept-language"];
    let details: Interaction;
    try {
      details = await provider.interactionDetails(req, res);
      if (details.uid !== uid) throw Object.assign(new Error("interaction mismatch"), { name: "SessionNotFound" });
    } catch (error) {
      if (!isSessionNotFound(error)) throw error;
      const locale = pickLocale(undefined, acceptLanguage);
      const t = textsFor(locale);
      sendMessage(res, 400, locale, t.sessionExpiredTitle, t.sessionExpired, {
        href: opts.appHome,
        label: t.backToApp,
      });
      return;
    }
    const locale = pickLocale(details.params.ui_locales, acceptLanguage);
    const t = textsFor(locale);
    const action = `/interaction/${encodeURIComponent(details.uid)}`;
    // A re-authentication the client asked for (prompt=login, max_age) while someone is signed in here
    // confirms that person; an electronic signature's request names its case and meaning (decision 029).
    const current = details.session?.accountId;
    const reauthentication = details.prompt.reasons.some((r) => r === "login_prompt" || r === "max_age");
    const fixedUsername = Boolean(current && reauthentication);
    const signing = signingContextOf(details.params);
    const showLogin = (status: number, username?: string, error?: string) =>
      send(res, status, (nonce) =>
        loginPage({
          locale,
          nonce,
          action,
          username: fixedUsername ? current : username,
          error,
          accounts: demoAccounts,
          fixedUsername,
          signing,
        }),
      );

    if (details.prompt.name === "consent") {
      await autoConsent(req, res, details);
      return;
    }
    if (details.prompt.name !== "login") {
      await provider.interactionFinished(req, res, {
        error: "access_denied",
        error_description: `unsupported interaction: ${details.prompt.name}`,
      });
      return;
    }
    if (req.method === "GET" || req.method === "HEAD") {
      // A re-authentication names the person signed in here already.
      showLogin(200, details.session?.accountId);
      return;
    }
    if (req.method !== "POST") {
      res.statusCode = 405;
      res.setHeader("Allow", "GET, POST");
      res.end();
      return;
    }

    const form = await readForm(req);
    const username = (form.get("username") ?? "").trim();
    const password = form.get("password") ?? "";
    if (!username || !password) {
      showLogin(200, username, t.missingCredentials);
      return;
    }
    const account = verifyCredentials(username, password);
    if (!account) {
      showLogin(200, username, t.wrongCredentials);
      return;
    }
    // Another account than the one signed in here is refused, so that signing (docs/decisions/029) cannot end
    // the signed-in person's session here, and with it their refresh tokens. To switch, sign out first.
    if (fixedUsername && account.username !== current) {
      showLogin(200, current, t.reauthenticateSamePerson);
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.username } },
      { mergeWithLastSubmission: false },
    );
  }

  async function termsRoute(req: IncomingMessage, res: ServerResponse, url: URL) {
    const form = req.method === "POST" ? await readForm(req) : new URLSearchParams();
    const uiLocales = form.get("ui_locales") ?? url.searchParams.get("ui_locales");
    const rawReturnTo = form.get("return_to") ?? url.searchParams.get("return_to");
    const returnTo = allowedReturnTo(rawReturnTo);

    const session = await provider.Session.get(provider.createContext(req, res));
    const account = session.accountId ? findAccount(session.accountId) : undefined;
    const locale = pickLocale(uiLocales, req.headers["accept-language"]);
    const t = textsFor(locale);
    const home = { href: returnTo ?? opts.appHome, label: t.backToApp };

    if (req.method === "GET" || req.method === "HEAD") {
      if (rawReturnTo && !returnTo) {
        sendMessage(res, 400, locale, t.badReturnToTitle, t.badReturnTo, { href: opts.appHome, label: t.backToApp });
        return;
      }
      if (!account) {
        sendMessage(res, 403, locale, t.termsNeedsLoginTitle, t.termsNeedsLogin, home);
        return;
      }
      send(res, 200, (nonce) =>
        termsPage({
          locale,
          nonce,
          action: "/terms",
          returnTo,
          uiLocales: uiLocales ?? undefined,
          csrf: csrfFor(session.uid),
          alreadyAccepted: terms.hasAccepted(account.username),
          fullName: account.fullName,
        }),
      );
      return;
    }
    if (req.method !== "POST") {
      res.statusCode = 405;
      res.setHeader("Allow", "GET, POST");
      res.end();
      return;
    }
    if (!account) {
      sendMessage(res, 403, locale, t.termsNeedsLoginTitle, t.termsNeedsLogin, home);
      return;
    }
    if (!csrfMatches(session.uid, form.get("csrf"))) {
      sendMessage(res, 403, locale, t.termsTitle, t.badRequest);
      return;
    }
    await terms.accept(account.username);
    if (returnTo) {
      redirect(res, returnTo);
      return;
    }
    sendMessage(res, 200, locale, t.acceptedTitle, t.accepted, { href: opts.appHome, label: t.backToApp });
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", "http://idp.invalid");
    const match = /^\/interaction\/([^/]+)\/?$/.exec(url.pathname);
    try {
      if (match?.[1]) {
        await interaction(req, res, decodeURIComponent(match[1]));
        return true;
      }
      if (url.pathname === "/terms" || url.pathname === "/terms/") {
        await termsRoute(req, res, url);
        return true;
      }
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      res.statusCode = 413;
      res.end();
      return true;
    }
    return false;
  };
}
