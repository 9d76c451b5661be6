import { useTranslation } from "~/texts";
import { FillLanguage } from "~/components/fill/FillLanguage";
import type { ContentLanguage } from "~/domain/languages";

/** The end of a patient's link (decision 057): thanks in their language, and that nothing more is needed. */
export function LinkThanks({ language }: { language: ContentLanguage }) {
  return (
    <FillLanguage lang={language} className="page page--narrow link-page">
      <Words />
    </FillLanguage>
  );
}

function Words() {
  const { t } = useTranslation();
  return (
    <div data-testid="link-thanks">
      <h1 id="link-thanks-title">{t("fill.linkThanksTitle")}</h1>
      <p role="status">{t("fill.linkThanksText")}</p>
      <p>{t("fill.linkThanksClose")}</p>
    </div>
  );
}
