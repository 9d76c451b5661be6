import { useRouteLoaderData } from "@remix-run/react";
import { useMemo, type ReactNode } from "react";
import { defaultCulture } from "~/domain/culture";
import { staffTexts, TextsProvider } from "~/texts";

/**
 * A part of a case's page that is staff's, not the patient's: what to do next once a case is closed, and the
 * note on it. Said in the staff's language (the page's own), also when the case is in the patient's
 * (docs/decisions/055-fill-languages.md), with that language on the part for screen readers.
 */
export function StaffWords({ children, className }: { children: ReactNode; className?: string }) {
  const root = useRouteLoaderData("root") as { locale?: string } | undefined;
  const texts = useMemo(() => staffTexts(root?.locale ?? defaultCulture), [root?.locale]);
  return (
    <TextsProvider texts={texts}>
      <div className={className} lang={texts.language} dir="ltr">
        {children}
      </div>
    </TextsProvider>
  );
}
