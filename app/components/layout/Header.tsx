import { Form, Link, useFetcher, useLocation, useMatches } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOnline } from "~/offline/connectivity";
import type { Culture } from "~/domain/culture";
import { initialHeaderScroll, nextHeaderScroll } from "./header-visibility";

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
          title={o.label}
        >
          <span aria-hidden="true">{o.short}</span>
          <span className="visually-hidden">{o.label}</span>
        </button>
      ))}
    </fetcher.Form>
  );
}

function SignOut() {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/authentication/logout">
      <button type="submit" className="btn btn--ghost">
        {t("header.signOut")}
      </button>
    </Form>
  );
}

function OfflineIndicator() {
  const { t } = useTranslation();
  const online = useOnline();
  const label = online ? t("header.online") : t("header.offline");
  const tip = online ? t("header.onlineTooltip") : t("header.offlineTooltip");
  return (
    <span
      className={`net net--${online ? "online" : "offline"}`}
      tabIndex={0}
      aria-describedby="net-tip"
      data-testid="offline-indicator"
    >
      <span className="net__dot" aria-hidden="true" />
      <span className="net__label">{label}</span>
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
