import type { LoaderFunctionArgs } from "@remix-run/node";

/** Where a silent sign-in ends, in a hidden frame of the app's page (app/offline/silent-sign-in.ts). */
export const SILENT_DONE = "/authentication/silent-done";

export const silentOutcome = (ok: boolean) => `${SILENT_DONE}?ok=${ok ? 1 : 0}`;

/**
 * A page with nothing to run: the app's page reads the outcome from this frame's address. The server
 * lets only the app's own pages frame it (server/index.js).
 */
export function loader({ request }: LoaderFunctionArgs) {
  const ok = new URL(request.url).searchParams.get("ok") === "1";
  return new Response(`<!doctype html><title>${ok ? "ok" : "failed"}</title>`, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
