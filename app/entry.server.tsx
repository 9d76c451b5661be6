import { Writable } from "node:stream";
import zlib from "node:zlib";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { defaultCulture } from "~/domain/culture";
import { textsOf } from "~/i18n";
import { TextsProvider, type Texts } from "~/texts";
import { NonceContext } from "~/components/layout/nonce";
import { RootStylesContext } from "~/components/layout/root-styles";
import { rootStylesText } from "~/server/root-styles.server";
import { scriptsAfterPaint } from "~/server/after-paint.server";
import { localeFromRequest } from "~/server/i18n.server";
import { missingTextsOfRequest } from "~/server/log.server";
import { HOLDER_HEADER } from "~/offline/sw-constants";
import {
  acceptsGzip,
  formKeysOf,
  keepTexts,
  pageKey,
  readChunks,
  RenderedPages,
  streamOf,
  withoutUnusedBytes,
} from "~/server/render.server";

export { apiFetch, boot, startStandaloneIdp } from "~/server/boot.server";
export { answersRefusedForm, bodyLimitOf, tooLarge } from "~/server/api/body.server";
export { recordRequest } from "~/server/metrics.server";
export { requestRoutes } from "~/server/api/app.server";
export { isCrossSiteWrite } from "~/server/auth/same-origin.server";
export { startEmbeddedIdp } from "~/server/idp/index.server";
export { log, pathForLog, requestIdFrom, withRequestContext } from "~/server/log.server";
export { nameMissingTexts } from "~/server/locales.server";
export { startDraining } from "~/server/lifecycle.server";
// For server/index.js, which serves the service worker and the build's assets.
export { ASSETS_PREFIX, RETIRED_WORKER_URL, WORKER_SCOPE, WORKER_URL } from "~/offline/sw-constants";

const ABORT_DELAY = 5_000;

/**
 * One set of texts per language for the whole process, each text kept once worked out: a page's render
 * only reads them (the language is switched in the browser), and working texts out anew for every request
 * was about a tenth of what the server spent on a page.
 */
const texts = new Map<string, Texts>();

function textsFor(language: string): Texts {
  let known = texts.get(language);
  if (!known) {
    known = { language, t: keepTexts(textsOf(language, defaultCulture)) };
    texts.set(language, known);
  }
  return known;
}

/** The pages kept, at most this many bytes of HTML in all. */
const KEPT_PAGE_BYTES = 24_000_000;
const pages = new RenderedPages(KEPT_PAGE_BYTES);

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const lng = localeFromRequest(request);
  const gzip = acceptsGzip(request.headers.get("accept-encoding"));
  const answer = (html: Buffer, how: "kept" | "rendered") => {
    // For the browser's tools, and the tests: whether the page was rendered for this request.
    responseHeaders.set("Server-Timing", `page;desc="${how}"`);
    return respond(html, gzip, responseStatusCode, responseHeaders);
  };

  // A page made of the same address, language and data as one rendered before is that page again.
  const { errors, actionData, loaderData } = remixContext.staticHandlerContext;
  // Whose page this is, for the service worker: it keeps a page only for the device's holder (decision 048).
  const holder = (loaderData?.root as { user?: { holder?: string } | null } | undefined)?.user?.holder;
  if (holder) responseHeaders.set(HOLDER_HEADER, holder);
  const values = [nonce, ...formKeysOf(loaderData)];
  let key: string | undefined;
  if (
    request.method === "GET" &&
    responseStatusCode === 200 &&
    !errors &&
    !actionData &&
    nonce &&
    remixContext.serverHandoffStream
  ) {
    const data = await readChunks(remixContext.serverHandoffStream);
    key = pageKey([lng, request.url], data, values);
    const kept = pages.get(key, values);
    if (kept) return answer(kept, "kept");
    remixContext.serverHandoffStream = streamOf(data);
  }

  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    let failed = false;
    const chunks: Uint8Array[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(withoutUnusedBytes(chunk));
        done();
      },
    });
    sink.on("finish", () => {
      clearTimeout(timer);
      const html = scriptsAfterPaint(Buffer.concat(chunks), remixContext.manifest.entry.imports);
      // A page that lacked a text is drawn anew each time, so that each answer says so.
      if (key && !failed && missingTextsOfRequest().length === 0) pages.set(key, html, values);
      resolve(answer(html, "rendered"));
    });
    const { pipe, abort } = renderToPipeableStream(
      <TextsProvider texts={textsFor(lng)}>
        <NonceContext.Provider value={nonce}>
          <RootStylesContext.Provider value={rootStylesText()}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </RootStylesContext.Provider>
        </NonceContext.Provider>
      </TextsProvider>,
      {
        nonce,
        // The pages hold no deferred data: the whole page is ready about when its first part is, and is
        // sent in one piece.
        onAllReady() {
          rendered = true;
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          failed = true;
          // A person who left before the page finished (the connection closed) is not an error of ours.
          if (rendered && !request.signal.aborted) console.error(error);
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY + 1000);
  });
}

/**
 * The page's response: gzipped in one piece off the main thread when the browser takes it and it pays. On
 * the main thread it cost the process less CPU (0.34 against 0.54 ms for the fill page: no stream, events
 * and callback), but the pages' p99 was higher in 14 of 16 bursts of the same load, every request held
 * behind the thread's gzip (decision 060).
 */
function respond(html: Buffer, gzip: boolean, status: number, headers: Headers): Promise<Response> {
  headers.set("Content-Type", "text/html; charset=utf-8");
  // A page holds its person's data (a case, the recent patients): the browser keeps no copy of it, so that
  // Back after a sign-out asks the server, which sends the next person to the sign-in. The service worker's
  // copies for offline use are its own (decision 048).
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-store");
  headers.append("Vary", "Accept-Encoding");
  const response = (body: Buffer) => {
    headers.set("Content-Length", String(body.length));
    // A view of the page's bytes, not a copy.
    return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length), { headers, status });
  };
  if (!gzip || html.length < GZIP_FROM_BYTES) return Promise.resolve(response(html));
  return new Promise((resolve) => {
    zlib.gzip(html, { level: GZIP_LEVEL }, (error, zipped) => {
      if (error) return resolve(response(html));
      headers.set("Content-Encoding", "gzip");
      resolve(response(zipped));
    });
  });
}

/** Pages smaller than this are sent as they are: gzip would save next to nothing. */
const GZIP_FROM_BYTES = 1024;
/**
 * zlib's level 2: a page shrinks to about a quarter (the fill page's 30 KB to 7.1 KB, against 6.5 KB at
 * level 6, zlib's default) for half of level 6's CPU (0.35 against 0.62 ms), which every page costs.
 */
const GZIP_LEVEL = 2;
