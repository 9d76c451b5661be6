import { createCookie } from "@remix-run/node";

/** A one-time notice carried across a redirect; the page shows it as a toast in its own language. */
export interface Flash {
  kind: "success" | "error" | "info";
  /** A key of the locale files. */
  key: string;
  vars?: Record<string, string>;
}

const flashCookie = createCookie("sv_flash", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

export async function setFlash(request: Request, flash: Flash): Promise<string> {
  return flashCookie.serialize(flash, { secure: new URL(request.url).protocol === "https:" });
}

/** Reads the notice (if any) and the header that removes it. */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const value: unknown = await flashCookie.parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return { flash: null, clear: null };
  return { flash: value as Flash, clear: await flashCookie.serialize("", { maxAge: 0 }) };
}
