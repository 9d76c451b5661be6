import { type LinksFunction, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { data } from "~/server/responses.server";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useMatches,
  useRouteLoaderData,
  type ClientLoaderFunctionArgs,
} from "@remix-run/react";
import { useEffect, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { usePageFocus } from "~/components/layout/page-focus";
import { Header } from "~/components/layout/Header";
import { useNonce } from "~/components/layout/nonce";
import { useSilentRenew } from "~/components/layout/useSilentRenew";
import { OfflineLayer } from "~/components/offline/OfflineLayer";
import { ToastProvider } from "~/components/ui/Toaster";
import { defaultCulture, isCulture, type Culture } from "~/domain/culture";
import { loadLocale, localeUrls, textPartsOf, type TextPart } from "~/locale-files";
import { afterLoad } from "~/offline/after-load";
import { reportNetworkError } from "~/offline/connectivity";
import { isNetworkError } from "~/offline/network";
import { readRootData, saveRootData } from "~/offline/root-cache";
import { getOptionalUser } from "~/server/auth/guards.server";
import { takeFlash } from "~/server/flash.server";
import { remixI18n } from "~/server/i18n.server";
import styles from "~/styles/index.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icon-192.png" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [locale, user, { flash, clear }] = await Promise.all([
    remixI18n.getLocale(request),
    getOptionalUser(request),
    takeFlash(request),
  ]);
  return data(
    {
      locale: isCulture(locale) ? locale : defaultCulture,
      user: user
        ? {
            fullName: user.identity.fullName,
            institute: user.identity.institute,
            roles: user.identity.roles,
            userId: user.identity.sub,
            surveyUserDataId: user.surveyUserDataId,
          }
        : null,
      flash,
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

/** Offline, navigations build the page from the last root data this device kept (no token in it). */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  try {
    const loaded = await serverLoader<typeof loader>();
    saveRootData({ ...loaded, flash: null });
    return loaded;
  } catch (error) {
    const kept = isNetworkError(error) ? readRootData<SerializeFrom<typeof loader>>() : null;
    if (!kept) throw error;
    reportNetworkError();
    return kept;
  }
}

export const handle = { i18n: "common" };

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const locale: Culture = root?.locale ?? defaultCulture;
  const parts = textPartsOf(useMatches().map((m) => m.handle));
  const nonce = useNonce();
  const { t } = useTranslation();
  const flash = root?.flash;
  const initial = useMemo(() => (flash ? { kind: flash.kind, message: t(flash.key, flash.vars) } : null), [flash, t]);
  usePageFocus();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5cad" />
        <Meta />
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
      </head>
      <body>
        <ToastProvider initial={initial}>
          <Header locale={locale} signedIn={Boolean(root?.user)} />
          <main id="main" className="main" tabIndex={-1}>
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
      .then((table) => {
        if (!live) return;
        i18n.addResourceBundle(locale, "common", table, true, true);
        void i18n.changeLanguage(locale);
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
    if (data?.user) return afterLoad(() => saveRootData({ ...data, flash: null }));
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
