import { data, redirect } from "@remix-run/node";
import { errorMessageKey } from "~/domain/error-messages";
import { AppError, type ErrorType } from "~/domain/errors";
import { ApiError } from "./api-client.server";
import { setFlash } from "./flash.server";

/** A refusal the page explains: the API's status and type, and the locale key of its message. */
export interface Refusal {
  status: number;
  type: string;
  key: string;
}

/** Where a page sends the person when the API refused (section 8). */
export interface RefusalWay {
  /** Where a refusal goes back to, with its message; without it the error page shows the message. */
  back?: string;
  /** Where a 404 goes, with its message; without it the not-found page is shown. */
  notFound?: string;
  /** Some types go elsewhere than `back` (for example a closed case back to the start page). */
  to?: Partial<Record<ErrorType, string>>;
  /** This page's own message for some types, in place of the common map's. */
  keys?: Partial<Record<ErrorType, string>>;
}

function asRefusal(error: unknown): { status: number; type: string } | null {
  if (error instanceof ApiError || error instanceof AppError) return { status: error.status, type: error.type };
  return null;
}

/**
 * What a refused call means for a page that stays where it is (a field saved in place, a lookup): its
 * status, type and message key. refused() below builds on it for loaders and actions that leave. 401 goes to the sign-in page (/401), 403 to the forbidden page;
 * these are thrown. Anything that is not a refusal (a thrown Response, a programming error) is thrown on.
 * Any other refusal comes back with its message key.
 */
export function refusalMessage(error: unknown, keys?: RefusalWay["keys"]): Refusal {
  const refused = asRefusal(error);
  if (!refused) throw error;
  if (refused.status === 401) throw redirect("/401");
  if (refused.status === 403) throw redirect("/403");
  const key = (keys as Record<string, string> | undefined)?.[refused.type] ?? errorMessageKey(refused);
  return { ...refused, key };
}

/**
 * The one way a loader or an action answers a refused API call: 401 to the sign-in page, 403 to the
 * forbidden page, 404 to `way.notFound` (or the not-found page), any other refusal back to `way.back` (or
 * the error page) with the translated message of its type. Never returns.
 */
export async function refused(request: Request, error: unknown, way: RefusalWay = {}): Promise<never> {
  const { status, type, key } = refusalMessage(error, way.keys);
  const to = (way.to as Record<string, string> | undefined)?.[type];
  if (!to && status === 404) return notFound(request, key, way.notFound);
  return leave(request, key, status, to ?? way.back);
}

/**
 * What the address names does not exist (an id that is none, or the API's 404): to `to` with the message,
 * or, without a place to go, the not-found page.
 */
export async function notFound(request: Request, key: string, to?: string): Promise<never> {
  return leave(request, key, 404, to);
}

async function leave(request: Request, key: string, status: number, to: string | undefined): Promise<never> {
  if (to) throw redirect(to, { headers: { "Set-Cookie": await setFlash(request, { kind: "error", key }) } });
  throw data({ key }, { status });
}

/**
 * A form whose fixed fields the page itself cannot have sent (an outdated or altered page): back to `to`
 * with the message that the input was not valid. Forms with fields a person types answer their field
 * errors on the page instead (submission.reply()).
 */
export async function badForm(request: Request, to: string): Promise<never> {
  return leave(request, "errors.validation", 400, to);
}
