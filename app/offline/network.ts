import { isRouteErrorResponse } from "@remix-run/react";

/**
 * Whether a failed loader or fetch means "no network": a TypeError from fetch (or the browser says it is
 * offline). Responses, redirects and route errors are answers from the server and are never offline.
 */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof Response || isRouteErrorResponse(error)) return false;
  if (error instanceof TypeError) return true;
  return typeof navigator !== "undefined" && navigator.onLine === false;
}
