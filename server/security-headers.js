// The security headers of every answer: a page's policies (a CSP with the request's script nonce, framing,
// COOP, permissions), the API's (nothing may load or frame it), and the two a script or stylesheet carries.

/** The one page the app frames itself: where a silent sign-in ends (app/routes/authentication.silent-done.tsx). */
const SELF_FRAMED = "/authentication/silent-done";

/**
 * The headers' setter: the build's scripts and styles are under `assets`, the API's paths are those
 * `isApiPath` names, and a page's forms and frames may go to the identity provider (`issuer`) and to the
 * app's public address (`publicUrl`).
 * @param {{ assets: string; isApiPath: (path: string) => boolean; issuer: string; publicUrl: string }} options
 */
export function securityHeadersFor({ assets, isApiPath, issuer, publicUrl }) {
  const issuerOrigin = new URL(issuer).origin;
  // The silent sign-in's hidden frame goes to the provider and back to the app's public address.
  const frameSources = [...new Set(["'self'", new URL(publicUrl).origin, issuerOrigin])].join(" ");

  /**
   * @param {Headers} headers
   * @param {string} nonce
   * @param {boolean} secure
   * @param {string} path
   */
  return function securityHeaders(headers, nonce, secure, path) {
    // A script or stylesheet is not a document: page policies (CSP, framing, COOP, permissions) do not apply
    // to it, and each of the 20-odd a page loads would carry some 600 bytes of them.
    if (path.startsWith(assets)) {
      headers.set("X-Content-Type-Options", "nosniff");
      if (secure) headers.set("Strict-Transport-Security", "max-age=31536000");
      return;
    }
    // The API answers data, never a document to run: nothing may load or frame it.
    if (isApiPath(path)) {
      headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
      headers.set("X-Content-Type-Options", "nosniff");
      headers.set("Referrer-Policy", "no-referrer");
      if (secure) headers.set("Strict-Transport-Security", "max-age=31536000");
      return;
    }
    const framed = path === SELF_FRAMED;
    headers.set(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        `form-action 'self' ${issuerOrigin}`,
        `frame-src ${frameSources}`,
        framed ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
      ].join("; "),
    );
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    headers.set("X-Frame-Options", framed ? "SAMEORIGIN" : "DENY");
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (secure) headers.set("Strict-Transport-Security", "max-age=31536000");
  };
}
