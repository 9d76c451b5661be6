import { localeFromRequest } from "~/server/i18n.server";
import { translate } from "~/server/locales.server";

/**
 * A deep link's hash (an editor or statistics tab, "#questionnaire") never reaches the server, and the
 * provider's sign-in form drops it. So a sign-in that a page's navigation started passes through a tiny page
 * that keeps the hash in a cookie before it goes on to the provider; the login callback puts it back on the
 * return address. Without JavaScript the page goes on by itself, without the hash.
 */

export const RETURN_HASH_COOKIE = "sv_return_hash";
const HASH = /^#[A-Za-z0-9_-]{1,40}$/;

/**
 * True for a request the browser makes to show a page (also when a service worker passes it on), not a
 * script's fetch or an HTTP client's call.
 */
export function isDocumentNavigation(request: Request): boolean {
  const headers = request.headers;
  const dest = headers.get("sec-fetch-dest");
  if (dest === "iframe" || dest === "frame") return false;
  return (
    headers.get("sec-fetch-mode") === "navigate" ||
    headers.get("sec-fetch-dest") === "document" ||
    (headers.get("accept") ?? "").includes("text/html")
  );
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The page that keeps the hash and goes on to `target` (the provider's sign-in). */
export function keepHashPage(request: Request, target: string, nonce: string): string {
  const locale = localeFromRequest(request);
  const href = escapeHtml(target);
  // JSON in a script: "<" is escaped so that no text can end the script element.
  const json = JSON.stringify(target).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="${locale.slice(0, 2)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(translate(locale, "auth.signingIn"))}</title>
<noscript><meta http-equiv="refresh" content="0;url=${href}"></noscript>
<script nonce="${escapeHtml(nonce)}">
(function () {
  var hash = location.hash;
  if (${HASH}.test(hash)) {
    document.cookie = "${RETURN_HASH_COOKIE}=" + encodeURIComponent(hash) + "; path=/authentication; max-age=600; samesite=lax" + (location.protocol === "https:" ? "; secure" : "");
  }
  location.replace(${json});
})();
</script>
</head>
<body><p><a href="${href}">${escapeHtml(translate(locale, "auth.continueToSignIn"))}</a></p></body>
</html>`;
}

/** The hash the sign-in kept, if any and plain. */
export function keptHash(cookieHeader: string | null): string {
  const raw = (cookieHeader ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${RETURN_HASH_COOKIE}=`))
    ?.slice(RETURN_HASH_COOKIE.length + 1);
  if (!raw) return "";
  let hash = "";
  try {
    hash = decodeURIComponent(raw);
  } catch {
    return "";
  }
  return HASH.test(hash) ? hash : "";
}

export function clearKeptHash(secure: boolean): string {
  return `${RETURN_HASH_COOKIE}=; Path=/authentication; Max-Age=0; SameSite=Lax${secure ? "; Secure" : ""}`;
}
