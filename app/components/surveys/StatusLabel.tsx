import { useTranslation } from "~/texts";
import type { SurveyStatus } from "~/domain/survey-status";

export function StatusLabel({ status }: { status: SurveyStatus }) {
  const { t } = useTranslation();
  return <span className={`status status--${status.toLowerCase()}`}>{t(`status.${status}`)}</span>;
}

export function Initial({ title }: { title: string }) {
  return (
    <span className="initial" aria-hidden="true">
      {(title.trim()[0] ?? "?").toLocaleUpperCase("de-DE")}
    </span>
  );
}
