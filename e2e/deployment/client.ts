import { follow, newBrowser } from "../../app/server/idp/test-client.server";

/** Signs in through the provider's login page as a person would; answers the cookie header for the app. */
export async function signIn(app: string, username: string, password = `${username}123`): Promise<string> {
  const browser = newBrowser();
  await follow(
    browser,
    `${app}/authentication/login?returnTo=%2Fsurveys`,
    `${app}/surveys`,
    () => new URLSearchParams({ username, password }),
  );
  const cookie = browser.jar.header(`${app}/api/`);
  if (!cookie.includes("sv_session=")) throw new Error(`sign-in of ${username} at ${app} gave no session`);
  return cookie;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read any answer shape
export type Call = <T = any>(method: string, path: string, body?: unknown) => Promise<T>;

/** Calls the API with a session cookie, as the app's pages do; throws on an answer that is not 2xx. */
export function caller(app: string, cookie: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${app}/api${path}`, {
      method,
      headers: { cookie, origin: app, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}
