/**
 * Cross-site request forgery defence for everything that acts on the session cookie: a request that may
 * change something (any method but GET, HEAD, OPTIONS) must say that it comes from the app's own pages.
 * Browsers send Origin on such requests; where it is missing, Sec-Fetch-Site must say "same-origin". The
 * cookie is SameSite=Lax as well, but other ports and sub-domains of the same site are "same-site" and
 * would pass that alone. Bearer-token calls carry no ambient credentials and need no check.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/** Whether the request comes from a page of this app: its own origin, or the public address. */
export function isSameOrigin(request: Request, publicUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin) return origin === new URL(request.url).origin || origin === new URL(publicUrl).origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/** A cookie-borne request that may change something, sent from another site. */
export function isCrossSiteWrite(request: Request, publicUrl: string): boolean {
  return !isSafeMethod(request.method) && !isSameOrigin(request, publicUrl);
}
