import { type LinksFunction, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { data } from "~/server/responses.server";
import {
  isRouteErrorResponse,
  Links,
  redirect,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useMatches,
  useRouteLoaderData,
  type ClientLoaderFunctionArgs,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from "react";
import { changePageLanguage } from "~/i18n";
import { useTranslation } from "~/texts";
import { usePageFocus } from "~/components/layout/page-focus";
import { Header } from "~/components/layout/Header";
import { RootStyles } from "~/components/layout/root-styles";
import { useNonce } from "~/components/layout/nonce";
import { useSilentRenew } from "~/components/layout/useSilentRenew";
import { OfflineLayer } from "~/components/offline/OfflineLayer";
import { ToastProvider } from "~/components/ui/Toaster";
import { useHydrated } from "~/components/ui/useHydrated";
import { defaultCulture, type Culture } from "~/domain/culture";
import type { HandoverCase } from "~/domain/handover";
import type { ContentLanguage } from "~/domain/languages";
import { fillTexts as fillWords } from "~/components/fill/fill-texts";
import {
  fillTextsOf,
  fillTextUrls,
  loadLocale,
  localeUrls,
  readyLanguage,
  textPartsOf,
  type TextPart,
} from "~/locale-files";
import { afterLoad } from "~/offline/after-load";
import { reportNetworkError } from "~/offline/connectivity";
import { isNetworkError } from "~/offline/network";
import { readRootData, saveRootData } from "~/offline/root-cache";
import { beginPerson, currentHolder } from "~/offline/vault";
import { getOptionalUser, sessionHandover } from "~/server/auth/guards.server";
import { getContext } from "~/server/context.server";
import { holderTag } from "~/server/services/offline-holder.server";
import { takeFlash } from "~/server/flash.server";
import { localeFromRequest } from "~/server/i18n.server";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icon-192.png" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = localeFromRequest(request);
  const [user, { flash, clear }, handover] = await Promise.all([
    getOptionalUser(request),
    takeFlash(request),
    sessionHandover(request),
  ]);
  return data(
    {
      locale,
      user: user
        ? {
            // Handed over to the patient (decision 058): the page carries nothing of the staff member's.
            fullName: handover ? "" : user.identity.fullName,
            institute: handover ? "" : user.identity.institute,
            roles: user.identity.roles,
            userId: user.identity.sub,
            surveyUserDataId: user.surveyUserDataId,
            /** Names this person's offline work on a device (decision 048). */
            holder: holderTag(getContext().env, user.identity.sub),
          }
        : null,
      flash,
      /** The device is handed to the patient for this case (decision 058): the patient's page only. */
      handover: user && handover ? { surveyId: handover.surveyId, patientId: handover.patientId } : null,
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

/**
 * The case this device is handed over for, as it holds it (decision 058), or null. Its code loads only when
 * asked (offline, or on a kept document), not with every page's start.
 */
async function deviceHandover(): Promise<HandoverCase | null> {
  const holder = await currentHolder();
  if (!holder) return null;
  const { readHandoverMark } = await import("~/offline/handover-mark");
  return readHandoverMark(holder).catch(() => null);
}

/**
 * Who the server says is signed in decides whose offline work the device holds (decision 048). Offline,
 * navigations build the page from the root data the holder kept (no token in it); while the device is
 * handed over, only the case's fill page (decision 058), as the server's rule and the service worker's.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  try {
    const loaded = await serverLoader<typeof loader>();
    // A language just switched to: its texts first, so that the page's title is not drawn from keys.
    await Promise.all([beginPerson(loaded.user ?? null), readyLanguage(loaded.locale)]);
    // Kept for offline pages: the staff member's, not the hand-over's (which names nobody).
    if (!loaded.handover) void saveRootData({ ...loaded, flash: null });
    return loaded;
  } catch (error) {
    const kept = isNetworkError(error) ? await readRootData<SerializeFrom<typeof loader>>() : null;
    if (!kept) throw error;
    reportNetworkError();
    const handover = await deviceHandover();
    if (handover) {
      const { handoverPath, pageAllowedInHandover } = await import("~/domain/handover");
      if (!pageAllowedInHandover(new URL(request.url).pathname, handover)) throw redirect(handoverPath(handover));
    }
    return { ...kept, handover };
  }
}

/**
 * The document kept for offline use (a survey's fill document) was rendered before any hand-over: on a
 * handed-over device the page it starts as is the patient's all the same (decision 058).
 */
const keptDocument = typeof document !== "undefined" && document.querySelector("[data-offline-shell]") !== null;

function useHandover(root: SerializeFrom<typeof loader> | undefined): HandoverCase | null {
  const [device, setDevice] = useState<HandoverCase | null>(null);
  const signedIn = Boolean(root?.user);
  useEffect(() => {
    if (!keptDocument || !signedIn) return;
    let live = true;
    void deviceHandover()
      .then((c) => live && setDevice(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [signedIn]);
  return root?.handover ?? device;
}

export const handle = { i18n: "common" };

/** The patient's bar of a hand-over (decision 058), loaded only on a handed-over device. */
const HandoverBar = lazy(() => import("~/components/handover/HandoverBar"));

/**
 * Where the hand-over bar goes. The bar is drawn once its code runs, never before: a tap on a drawn button
 * whose code had not arrived yet did nothing (the way back to staff on a slow tablet). Until then its place
 * is kept, so that the page does not move when it comes.
 */
function HandoverSlot({ kase, language }: { kase: HandoverCase; language: ContentLanguage | null }) {
  const hydrated = useHydrated();
  return (
    <div className="handover-slot">
      {hydrated ? (
        <Suspense fallback={null}>
          <HandoverBar kase={kase} language={language} />
        </Suspense>
      ) : null}
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const handover = useHandover(root);
  const locale: Culture = root?.locale ?? defaultCulture;
  const matches = useMatches();
  const parts = textPartsOf(matches.map((m) => m.handle));
  // A patient's link's pages show no header menu: nothing of staff's app (decision 057).
  const bare = matches.some((m) => (m.handle as { bare?: boolean } | undefined)?.bare) || Boolean(handover);
  // A fill page in a case's language: that language's fill words, unless they are the page's own.
  const fillTexts = fillTextsOf(matches, locale);
  // A patient's link page is the patient's whole page: its language is the case's (decision 057).
  const patientLanguage = bare && !handover ? fillTexts : null;
  const patientWords = useMemo(() => (patientLanguage ? fillWords(patientLanguage) : null), [patientLanguage]);
  const nonce = useNonce();
  const { t } = useTranslation();
  const flash = root?.flash;
  const initial = useMemo(() => (flash ? { kind: flash.kind, message: t(flash.key, flash.vars) } : null), [flash, t]);
  usePageFocus();
  // Once the page runs (its effects, such as a tab's scroll to the top, done), the document says so: a
  // script-driven check waits for this before its first click, as a person waits for the page to settle.
  useEffect(() => {
    document.documentElement.dataset.started = "";
  }, []);
  return (
    <html lang={patientLanguage ?? locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5cad" />
        {root ? (
          // Whose offline work this device may hold: read first thing by the page's script (entry.client).
          <meta name="offline-holder" content={root.user?.holder ?? ""} data-user={root.user?.userId ?? ""} />
        ) : null}
        <Meta />
        {/* Before the routes' own stylesheets (<Links />), as the linked stylesheet came before them. */}
        <RootStyles />
        <Links />
        {parts.map((part) => (
          <link
            key={part}
            rel="preload"
            href={localeUrls[locale][part]}
            as="fetch"
            crossOrigin="anonymous"
            data-texts={part}
          />
        ))}
        {fillTexts ? (
          <link
            rel="preload"
            href={fillTextUrls[fillTexts]}
            as="fetch"
            crossOrigin="anonymous"
            data-fill-texts={fillTexts}
          />
        ) : null}
      </head>
      <body>
        <ToastProvider initial={initial} words={patientWords}>
          {bare ? null : <Header locale={locale} signedIn={Boolean(root?.user)} />}
          <main id="main" className={handover ? "main main--handover" : "main"} tabIndex={-1}>
            {handover ? <HandoverSlot kase={handover} language={fillTexts} /> : null}
            {children}
          </main>
        </ToastProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Follows the root's language: a language switched to is fetched first, then the page changes to it. */
function useLanguage(locale: Culture, parts: TextPart[]) {
  const { i18n } = useTranslation();
  const key = parts.join();
  useEffect(() => {
    if (i18n.language === locale) return;
    let live = true;
    loadLocale(locale, parts)
      .then(() => {
        if (live) changePageLanguage(locale);
      })
      .catch((error: unknown) => console.error(error));
    return () => {
      live = false;
    };
    // The parts stand in for their key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale, i18n, key]);
}

export default function App() {
  const data = useRouteLoaderData<typeof loader>("root");
  useLanguage(data?.locale ?? defaultCulture, textPartsOf(useMatches().map((m) => m.handle)));
  useSilentRenew(Boolean(data?.user));
  useEffect(() => {
    if (data?.user) return afterLoad(() => void saveRootData({ ...data, flash: null }));
  }, [data]);
  return (
    <>
      <Outlet />
      {data?.user ? <OfflineLayer /> : null}
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A refusal of the API that a loader could not send elsewhere carries its message's key (refused()).
  const key = isRouteErrorResponse(error) ? (error.data as { key?: unknown } | null)?.key : undefined;
  const text = typeof key === "string" ? t(key) : notFound ? t("notFound.text") : t("errors.unexpected");
  return (
    <section className="page page--narrow">
      <h1>{notFound ? t("notFound.title") : t("errors.pageTitle")}</h1>
      <p data-testid="error-text">{text}</p>
      <a className="btn btn--primary" href="/surveys">
        {t("notFound.toList")}
      </a>
    </section>
  );
}
