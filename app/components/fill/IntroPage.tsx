import { useTranslation } from "~/texts";

/** The survey's intro text with the way on: a link that works without JavaScript, a page change with it. */
export function IntroPage({ html, href, onContinue }: { html: string; href: string; onContinue: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="fill-intro">
      <div className="rich" dangerouslySetInnerHTML={{ __html: html }} />
      <div className="fill-actions">
        <a className="btn btn--primary" href={href} onClick={(e) => (e.preventDefault(), onContinue())}>
          {t("fill.continueIntro")}
        </a>
      </div>
    </div>
  );
}
