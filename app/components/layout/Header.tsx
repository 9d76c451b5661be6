import { Form, Link, useFetcher, useLocation, useMatches } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "~/texts";
import { useOnline } from "~/offline/connectivity";
import type { FillEntry } from "~/offline/fill-entry";
import { markSignOut, signedOut } from "~/offline/sign-out-pending";
import { lockDevice } from "~/offline/vault";
import type { Culture } from "~/domain/culture";
import { withTexts } from "~/locale-files";
import { initialHeaderScroll, nextHeaderScroll } from "./header-visibility";

const SignOutDialog = lazy(withTexts(() => import("~/components/offline/SignOutDialog"), ["sync"]));

export interface RouteHandle {
  /** Shows the back-to-survey-list button in the header (statistics and editor routes). */
  backToList?: boolean;
}

function LanguageSelector({ locale }: { locale: Culture }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("locale");
  const current = typeof pending === "string" ? pending : locale;
  const options: { value: Culture; label: string; short: string }[] = [
    { value: "de-DE", label: t("header.languageGerman"), short: "DE" },
    { value: "en-US", label: t("header.languageEnglish"), short: "EN" },
  ];
  return (
    <fetcher.Form method="post" action="/language" className="lang" aria-label={t("header.language")} role="group">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search + location.hash} />
      {options.map((o) => (
        <button
          key={o.value}
          type="submit"
          name="locale"
          value={o.value}
          lang={o.value}
          aria-pressed={current === o.value}
          className="lang__option"
          // Named by its tooltip alone (the short code is not read): a hidden copy of the same words besides
          // was read once more as the button's description.
          title={o.label}
        >
          <span aria-hidden="true">{o.short}</span>
        </button>
      ))}
    </fetcher.Form>
  );
}

/**
 * Signs out. With work of this person not on the server, it asks first (SignOutDialog); either way the
 * device forgets this person's keys before the page leaves (decision 048). Without JavaScript the form
 * posts as it is, and the next page, signed out, makes the device forget them.
 */
function SignOut() {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  const [unsynced, setUnsynced] = useState<FillEntry[] | null>(null);
  const leave = () => {
    const offline = markSignOut();
    void lockDevice().finally(() => {
      if (!offline) form.current?.submit();
      // The page says so once its words are in (loaded after the page's start); before that, the form goes as
      // without scripts.
      else
        void signedOut().then(
          (m) => m.showSignedOutHere(),
          () => form.current?.submit(),
        );
    });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void import("~/offline/fill-sync-store")
      .then((m) => m.listEntries())
      .catch(() => [] as FillEntry[])
      .then((entries) => {
        const open = entries.filter(
          (e) => e.notSynced || (e.close && !e.closeSent) || Object.keys(e.upload.files).length,
        );
        if (open.length) setUnsynced(open);
        else leave();
      });
  };
  const syncNow = async () => {
    const { syncAll } = await import("~/offline/sync-client");
    return (await syncAll()).left;
  };
  return (
    <>
      <Form method="post" action="/authentication/logout" ref={form} onSubmit={onSubmit}>
        <button type="submit" className="btn btn--ghost" data-testid="sign-out">
          {t("header.signOut")}
        </button>
      </Form>
      {unsynced
        ? // Outside the header: on a phone the sign-out sits in the menu, which closes when it is chosen.
          createPortal(
            <Suspense fallback={null}>
              <SignOutDialog entries={unsynced} syncNow={syncNow} signOut={leave} onClose={() => setUnsynced(null)} />
            </Suspense>,
            document.body,
          )
        : null}
    </>
  );
}

/**
 * The connection's state: a button named by its word, described by what the state means for answers (the
 * tooltip, shown while it has focus or the pointer, as on a touch screen after a tap). Escape hides the tooltip
 * (WCAG 1.4.13), a click shows it again.
 */
function OfflineIndicator() {
  const { t } = useTranslation();
  const online = useOnline();
  const [hidden, setHidden] = useState(false);
  const label = online ? t("header.online") : t("header.offline");
  const tip = online ? t("header.onlineTooltip") : t("header.offlineTooltip");
  return (
    <span className="net-box" data-tip-hidden={hidden || undefined} onMouseLeave={() => setHidden(false)}>
      <button
        type="button"
        className={`net net--${online ? "online" : "offline"}`}
        aria-describedby="net-tip"
        data-testid="offline-indicator"
        onClick={() => setHidden(false)}
        onBlur={() => setHidden(false)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setHidden(true);
        }}
      >
        <span className="net__dot" aria-hidden="true" />
        <span className="net__label">{label}</span>
      </button>
      <span role="tooltip" id="net-tip" className="tooltip">
        {tip}
      </span>
    </span>
  );
}

export function Header({ locale, signedIn }: { locale: Culture; signedIn: boolean }) {
  const { t } = useTranslation();
  const matches = useMatches();
  const backToList = matches.some((m) => (m.handle as RouteHandle | undefined)?.backToList);
  const [visible, setVisible] = useState(true);
  const state = useRef(initialHeaderScroll);
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const onScroll = () => {
      state.current = nextHeaderScroll(state.current, window.scrollY);
      setVisible(state.current.visible);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  const actions = (
    <>
      <LanguageSelector locale={locale} />
      {signedIn ? <SignOut /> : null}
    </>
  );

  return (
    <header className={`header${visible ? "" : " header--hidden"}`} data-visible={visible}>
      <a href="#main" className="skip-link">
        {t("app.skipToContent")}
      </a>
      <Link to="/surveys" className="header__logo" aria-label={t("header.logoLabel")}>
        <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
          <rect width="32" height="32" rx="7" fill="currentColor" />
          <path d="M9 10h14M9 16h14M9 22h9" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
        </svg>
        <span className="header__name">{t("app.name")}</span>
      </Link>
      {backToList ? (
        <Link to="/surveys" className="btn btn--ghost header__back">
          <span aria-hidden="true">←</span> {t("header.backToList")}
        </Link>
      ) : null}
      <div className="header__spacer" />
      <OfflineIndicator />
      <div className="header__actions">{actions}</div>
      <details className="header__menu" ref={menu}>
        <summary className="btn btn--ghost" aria-label={t("header.menu")}>
          <span aria-hidden="true">☰</span>
        </summary>
        <div
          className="header__menu-panel"
          // A choice made in the menu (a language) closes it, and focus goes back to its button.
          onClick={(event) => {
            if (!(event.target as HTMLElement).closest("button") || !menu.current) return;
            menu.current.open = false;
            menu.current.querySelector("summary")?.focus();
          }}
        >
          {actions}
        </div>
      </details>
    </header>
  );
}
