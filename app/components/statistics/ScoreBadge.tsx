import { useTranslation } from "~/texts";
import { formatNumber } from "~/domain/number-format";
import type { ScoreFlag } from "~/domain/statistics";

const flagName: Record<ScoreFlag, string> = { 1: "red", 2: "yellow", 3: "green", 4: "gray" };

/** A score with its flag: the percentage (1 decimal) or the raw score against its maximum. */
export function ScoreBadge({
  flag,
  percentage,
  result,
  max,
  percent,
}: {
  flag: ScoreFlag | null;
  percentage: number | null;
  result: number | null;
  max: number | null;
  percent: boolean;
}) {
  const { t, i18n } = useTranslation();
  const f = flag ?? 4;
  const number = (n: number, digits: number) => formatNumber(n, i18n.language, digits, true);
  const value =
    percentage === null || result === null
      ? t("statistics.score.none")
      : percent
        ? `${number(percentage, 1)} %`
        : `${number(result, 2)} / ${number(max ?? 0, 0)}`;
  return (
    <span className={`score score--${flagName[f]}`}>
      <span className="score__flag" aria-hidden="true" />
      <span className="visually-hidden">{t(`statistics.flag.${f}`)}: </span>
      {value}
    </span>
  );
}
