import { createCookie } from "@remix-run/node";
import { defaultCulture, isCulture, type Culture } from "~/domain/user";

export const LOCALE_COOKIE = "sv_lng";

export const localeCookie = createCookie(LOCALE_COOKIE, {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

/** The page language of a request: the language cookie, else German. */
export function localeFromRequest(request: Request): Culture {
  const header = request.headers.get("Cookie") ?? "";
  const match = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`).exec(header);
  if (!match) return defaultCulture;
  try {
    // Remix cookies hold base64 of a JSON string.
    const value: unknown = JSON.parse(Buffer.from(decodeURIComponent(match[1]), "base64").toString("utf8"));
    return isCulture(value) ? value : defaultCulture;
  } catch {
    return defaultCulture;
  }
}

export function setLocaleCookie(culture: Culture, secure: boolean) {
  return localeCookie.serialize(culture, { secure });
}
