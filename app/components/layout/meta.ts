import type { MetaArgs } from "@remix-run/node";
import { translate } from "~/i18n";

/** The document title "<page> · <app>", in the page's language (from the root loader). */
export function pageTitle(matches: MetaArgs["matches"], key: string, vars?: Record<string, string>) {
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  const locale = root?.locale;
  return [{ title: `${translate(locale, key, vars)} · ${translate(locale, "app.name")}` }];
}
