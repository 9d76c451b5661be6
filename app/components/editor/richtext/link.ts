/** Link targets the editor accepts: web pages and e-mail addresses only. */
const ALLOWED =
  /^(https?:\/\/[^\s/?#]+\.[^\s]*|https?:\/\/localhost(:\d+)?(\/\S*)?|mailto:[^\s@]+@[^\s@]+\.[^\s@]+(\?\S*)?)$/i;

/** True for an http, https or mailto address that can stand in a link. */
export function isAllowedLink(url: string): boolean {
  return ALLOWED.test(url.trim());
}

/**
 * The address typed into the link form, as it will be stored: trimmed, and "www.example.org" or
 * "name@example.org" completed with https:// or mailto:. Null when it is not an allowed address.
 */
export function normalizeLink(input: string): string | null {
  let url = input.trim();
  if (!url || /\s/.test(url)) return null;
  if (!/^[a-z][a-z\d+.-]*:/i.test(url)) {
    if (/^[^\s@/]+@[^\s@]+\.[^\s@]+$/.test(url)) url = `mailto:${url}`;
    else if (/^[^\s@:/]+\.[^\s@:]+/.test(url)) url = `https://${url}`;
    else return null;
  }
  return isAllowedLink(url) ? url : null;
}
