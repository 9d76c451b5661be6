import { randomBytes } from "node:crypto";
import { asContentLanguage, isRightToLeft } from "~/domain/languages";
import type { DemoAccount, IdpLocale } from "./accounts.server";
import { textsFor, type Texts } from "./i18n.server";

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The Content-Security-Policy of the provider's pages: only our own nonce-tagged style and
 * script run, and forms may post to the provider and (through its redirects) the apps.
 */
export function contentSecurityPolicy(nonce: string, formTargets: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    `form-action 'self' ${formTargets.join(" ")}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

const STYLE = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:#1b2430;background:#eef2f6}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:2rem 1rem}
header{font-size:.9rem;color:#4a5868;margin-bottom:1rem;letter-spacing:.02em}
main{width:100%;max-width:26rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px rgba(16,24,40,.12),0 1px 2px rgba(16,24,40,.06);padding:1.75rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{margin:.5rem 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[type=text],input[type=password]{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #8a96a3;border-radius:.375rem;background:#fff;color:inherit}
input[aria-invalid=true]{border-color:#b42318}
button,.button{display:inline-block;font:inherit;font-weight:600;margin-top:1.25rem;padding:.65rem 1.25rem;border:0;border-radius:.375rem;background:#0b5cad;color:#fff;cursor:pointer;text-decoration:none}
button:hover,.button:hover{background:#084a8c}
button.wide{width:100%}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.error{border-left:4px solid #b42318;background:#fef3f2;color:#7a1a12;padding:.6rem .8rem;border-radius:.25rem;margin:1rem 0}
.notice{border-left:4px solid #0b5cad;background:#eff6ff;padding:.6rem .8rem;border-radius:.25rem}
ul.terms{padding-left:1.25rem}
ul.terms li{margin:.35rem 0}
details{margin-top:1.5rem;border-top:1px solid #d5dbe1;padding-top:1rem}
summary{cursor:pointer;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:.85rem;margin-top:.5rem}
th,td{text-align:left;padding:.3rem .25rem;border-bottom:1px solid #e4e8ec;vertical-align:top}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
`;

export interface Page {
  locale: IdpLocale;
  title: string;
  body: string;
  nonce: string;
  script?: string;
}

/**
 * The product's icon, inline: the provider answers on its own origin, where a browser would otherwise ask
 * for /favicon.ico and get a 404 on every page (the policy's img-src allows data:).
 */
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5cad"/>' +
    '<path d="M9 10h14M9 16h14M9 22h9" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>',
)}`;

export function layout({ locale, title, body, nonce, script }: Page): string {
  const t = textsFor(locale);
  return `<!DOCTYPE html>
<html lang="${t.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} – ${escapeHtml(t.productName)}</title>
<link rel="icon" type="image/svg+xml" href="${ICON}">
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header>${escapeHtml(t.productName)}</header>
<main>
${body}
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ""}
</body>
</html>`;
}

function demoTable(t: Texts, accounts: ReadonlyArray<Readonly<DemoAccount>>): string {
  const rows = accounts
    .map((a) => {
      const roles = a.roles.length ? a.roles.join(", ") : t.demoNoRoles;
      const note = a.hasAcceptedTos ? "" : `<br><small>${escapeHtml(t.demoTosPending)}</small>`;
      return `<tr><td><code>${escapeHtml(a.username)}</code></td><td><code>${escapeHtml(a.password)}</code></td><td>${escapeHtml(roles)}${note}</td></tr>`;
    })
    .join("");
  return `<details>
<summary>${escapeHtml(t.demoTitle)}</summary>
<p>${escapeHtml(t.demoIntro)}</p>
<table><thead><tr><th scope="col">${escapeHtml(t.demoUser)}</th><th scope="col">${escapeHtml(t.demoPassword)}</th><th scope="col">${escapeHtml(t.demoRoles)}</th></tr></thead>
<tbody>${rows}</tbody></table>
</details>`;
}

/** What a signing's re-authentication names (the app's signing request carries it, decision 029). */
export interface SigningContext {
  patient: string;
  survey: string;
  meaning: string;
  /** The language the survey's title is in (the case's), when the request names one. */
  language?: string;
}

/** The signing's case, survey and meaning in the page's words; the survey's title marked with its language. */
function signingWhat(template: string, signing: SigningContext, meaning: string): string {
  const lang = asContentLanguage(signing.language);
  const survey = lang
    ? `<span lang="${lang}" dir="${isRightToLeft(lang) ? "rtl" : "ltr"}">${escapeHtml(signing.survey)}</span>`
    : escapeHtml(signing.survey);
  const parts: Record<string, string> = { patient: escapeHtml(signing.patient), survey, meaning: escapeHtml(meaning) };
  return escapeHtml(template).replace(/\{(patient|survey|meaning)\}/g, (_, name: string) => parts[name]!);
}

export function loginPage(opts: {
  locale: IdpLocale;
  nonce: string;
  action: string;
  username?: string;
  error?: string;
  accounts: ReadonlyArray<Readonly<DemoAccount>>;
  /** A re-authentication of the person signed in here: their user name is fixed. */
  fixedUsername?: boolean;
  /** A re-authentication for an electronic signature: the page says so, for which case and meaning. */
  signing?: SigningContext;
}): string {
  const t = textsFor(opts.locale);
  const invalid = opts.error ? ' aria-invalid="true" aria-describedby="login-error"' : "";
  const signing = opts.signing;
  const meaning = signing ? (t.signMeaning[signing.meaning as keyof typeof t.signMeaning] ?? signing.meaning) : "";
  const title = signing ? t.signTitle : t.loginTitle;
  const intro = signing
    ? `<p id="signing-what">${signingWhat(t.signIntro, signing, meaning)}</p>
<p>${escapeHtml(t.signPassword)}</p>`
    : `<p>${escapeHtml(t.loginIntro)}</p>`;
  // The person signed in here re-authenticates: their name is shown, not typed (another account is refused).
  const username = opts.fixedUsername
    ? `<label for="username">${escapeHtml(t.reauthenticateAs)}</label>
<input id="username" name="username" type="text" readonly value="${escapeHtml(opts.username ?? "")}">`
    : `<label for="username">${escapeHtml(t.username)}</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeHtml(opts.username ?? "")}"${invalid}>`;
  const password = `<input id="password" name="password" type="password" autocomplete="current-password" required${opts.fixedUsername ? " autofocus" : ""}${invalid}>`;
  const body = `<h1>${escapeHtml(title)}</h1>
${intro}
${opts.error ? `<div id="login-error" class="error" role="alert">${escapeHtml(opts.error)}</div>` : ""}
<form method="post" action="${escapeHtml(opts.action)}" novalidate>
${username}
<label for="password">${escapeHtml(t.password)}</label>
${password}
<button type="submit" class="wide">${escapeHtml(signing ? t.signSubmit : t.submitLogin)}</button>
</form>
${signing ? "" : demoTable(t, opts.accounts)}`;
  return layout({ locale: opts.locale, nonce: opts.nonce, title, body });
}

export function termsPage(opts: {
  locale: IdpLocale;
  nonce: string;
  action: string;
  returnTo?: string;
  uiLocales?: string;
  csrf: string;
  alreadyAccepted: boolean;
  fullName: string;
}): string {
  const t = textsFor(opts.locale);
  const items = t.termsBody.map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  const uiLocales = opts.uiLocales
    ? `<input type="hidden" name="ui_locales" value="${escapeHtml(opts.uiLocales)}">`
    : "";
  const returnTo = opts.returnTo ? `<input type="hidden" name="return_to" value="${escapeHtml(opts.returnTo)}">` : "";
  const body = `<h1>${escapeHtml(t.termsTitle)}</h1>
<p>${escapeHtml(opts.fullName)}: ${escapeHtml(t.termsIntro)}</p>
<ul class="terms">${items}</ul>
${opts.alreadyAccepted ? `<p class="notice">${escapeHtml(t.alreadyAccepted)}</p>` : ""}
<form method="post" action="${escapeHtml(opts.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
${returnTo}${uiLocales}
<button type="submit" class="wide" autofocus>${escapeHtml(opts.alreadyAccepted ? t.continue : t.accept)}</button>
</form>`;
  return layout({ locale: opts.locale, nonce: opts.nonce, title: t.termsTitle, body });
}

/** A page with a heading, a paragraph and an optional link onwards. */
export function messagePage(opts: {
  locale: IdpLocale;
  nonce: string;
  title: string;
  message: string;
  details?: string[];
  link?: { href: string; label: string };
}): string {
  const details = (opts.details ?? []).map((d) => `<p><code>${escapeHtml(d)}</code></p>`).join("");
  const link = opts.link
    ? `<p><a class="button" href="${escapeHtml(opts.link.href)}">${escapeHtml(opts.link.label)}</a></p>`
    : "";
  const body = `<h1>${escapeHtml(opts.title)}</h1>
<p>${escapeHtml(opts.message)}</p>
${details}${link}`;
  return layout({ locale: opts.locale, nonce: opts.nonce, title: opts.title, body });
}

/**
 * The sign-out step: the provider's confirmation form (with its anti-forgery field) is sent
 * at once by a small script; without JavaScript the visible button sends it.
 */
export function logoutPage(opts: { locale: IdpLocale; nonce: string; form: string }): string {
  const t = textsFor(opts.locale);
  const body = `<h1>${escapeHtml(t.logoutTitle)}</h1>
<p role="status">${escapeHtml(t.loggingOut)}</p>
${opts.form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="wide" autofocus>${escapeHtml(t.logoutButton)}</button>`;
  const script = `(function(){var f=document.getElementById("op.logoutForm");if(!f)return;var i=document.createElement("input");i.type="hidden";i.name="logout";i.value="yes";f.appendChild(i);f.submit();})();`;
  return layout({ locale: opts.locale, nonce: opts.nonce, title: t.logoutTitle, body, script });
}
