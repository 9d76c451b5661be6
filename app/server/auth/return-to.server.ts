import { createCookie } from "@remix-run/node";

/** Where the person wanted to go, kept across the sign-in at the provider (ten minutes at most). */
export const returnToCookie = createCookie("sv_return_to", {
  path: "/authentication",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 600,
});

const HOME = "/surveys";
const PLACE = new URL("http://app.invalid");

/**
 * A path inside the app, or /surveys: never a foreign address, and always one a Location header can carry.
 * Browsers drop tabs and line breaks from an address and read a backslash as a slash, so "/\t/evil.example"
 * would become "//evil.example": any control character or backslash is refused. What remains is normalised
 * (non-ASCII characters percent-encoded).
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (typeof value !== "string" || value.length > 2000 || !value.startsWith("/") || value.startsWith("//")) {
    return HOME;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return HOME;
  let url: URL;
  try {
    url = new URL(value, PLACE);
  } catch {
    return HOME;
  }
  // "/x/..//evil.example" resolves to the path "//evil.example", which a browser reads as another host.
  if (url.origin !== PLACE.origin || url.pathname.startsWith("//")) return HOME;
  return `${url.pathname}${url.search}${url.hash}`;
}
