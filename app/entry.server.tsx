import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance, type i18n } from "i18next";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "~/i18n";
import { resources } from "~/server/locales.server";
import { NonceContext } from "~/components/layout/nonce";
import { remixI18n } from "~/server/i18n.server";

export { apiFetch, boot, startStandaloneIdp } from "~/server/boot.server";
export { bodyLimitOf } from "~/server/api/body.server";
export { isCrossSiteWrite } from "~/server/auth/same-origin.server";
export { startEmbeddedIdp } from "~/server/idp/index.server";
export { log, requestIdFrom, withRequestContext } from "~/server/log.server";
export { startDraining } from "~/server/lifecycle.server";
// For server/index.js, which serves the service worker and the build's assets.
export { ASSETS_PREFIX, RETIRED_WORKER_URL, WORKER_SCOPE, WORKER_URL } from "~/offline/sw-constants";

const ABORT_DELAY = 5_000;

/**
 * One translation instance per language for the whole process: a page's render only reads it (the
 * language is switched in the browser, in an effect), and setting one up for every request was about a
 * tenth of what the server spent on a page.
 */
const instances = new Map<string, Promise<i18n>>();

function instanceFor(lng: string): Promise<i18n> {
  let instance = instances.get(lng);
  if (!instance) {
    const created = createInstance();
    instance = created
      .use(initReactI18next)
      .init({ ...i18nConfig, lng, resources })
      .then(() => created);
    instances.set(lng, instance);
  }
  return instance;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const instance = await instanceFor(await remixI18n.getLocale(request));

  const readyEvent =
    isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={instance}>
        <NonceContext.Provider value={nonce}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </NonceContext.Provider>
      </I18nextProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // A person who left before the page finished (the connection closed) is not an error of ours.
          if (shellRendered && !request.signal.aborted) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}
