import { useTranslation } from "~/texts";
import { DataTable } from "~/components/ui/DataTable";
import { formatNumber } from "~/domain/number-format";
import { SCORE_DECIMALS, type TotalBand } from "~/domain/scores";
import type { ScoreTotalStatistics } from "~/domain/statistics";

/**
 * A survey's total score over the counted cases (docs/decisions/051-instrument-scores.md): how many cases
 * have one, mean, median, minimum and maximum, and how the totals spread, as a table whose rows carry a bar
 * each (the bar is drawn for the eye; the table says the same in figures).
 */
export function ScoreTotalBlock({
  total,
  other,
}: {
  total: ScoreTotalStatistics;
  /** The benchmark survey's total, while benchmarking one that has a total. */
  other: ScoreTotalStatistics | null;
}) {
  const { t, i18n } = useTranslation();
  const show = (v: number | null | undefined) =>
    v === null || v === undefined ? "–" : formatNumber(v, i18n.language, SCORE_DECIMALS);
  const pct = (n: number) => `${formatNumber(total.Cases > 0 ? (n / total.Cases) * 100 : 0, i18n.language, 1)} %`;
  const most = Math.max(1, ...total.Distribution.map((b) => b.Count));
  const band = (b: TotalBand) =>
    b.From === b.To ? show(b.From) : t("statistics.total.band", { from: show(b.From), to: show(b.To) });
  return (
    <section className="total" aria-labelledby="score-total" data-testid="score-total">
      <h2 id="score-total" className="total__title">
        {total.Title}
      </h2>
      <p className="total__cases">
        {t("statistics.total.cases", { count: total.Cases })}
        {other ? (
          <span className="qstat__bench">
            {" "}
            · {t("statistics.benchmark.short")}: {t("statistics.total.cases", { count: other.Cases })}
          </span>
        ) : null}
      </p>
      {total.Cases > 0 ? (
        <>
          <dl className="qstat__summary">
            {(["Mean", "Median", "Min", "Max"] as const).map((k) => (
              <div key={k}>
                <dt>{t(`statistics.total.${k.toLowerCase()}`)}</dt>
                <dd data-testid={`total-${k.toLowerCase()}`}>
                  {show(total[k])}
                  {other ? (
                    <span className="qstat__bench">
                      {" "}
                      ({t("statistics.benchmark.short")}: {show(other[k])})
                    </span>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
          <DataTable
            className="table qstat__table total__table"
            caption={t("statistics.total.distribution", { title: total.Title })}
            rows={total.Distribution}
            rowId={(b) => `${b.From}-${b.To}`}
            columns={[
              { id: "total", header: total.Title, rowHeader: true, sortValue: (b) => b.From, cell: band },
              { id: "cases", header: t("statistics.total.casesColumn"), numeric: true, sortValue: (b) => b.Count },
              {
                // Sorted as the cases are: no order of its own (and room left on a phone).
                id: "share",
                header: t("statistics.percent"),
                cell: (b) => (
                  <span className="total__share">
                    <span className="share-bars__track" aria-hidden="true">
                      <span className="share-bars__bar total__bar" style={{ width: `${(b.Count / most) * 100}%` }} />
                    </span>
                    <span className="share-bars__share">{pct(b.Count)}</span>
                  </span>
                ),
              },
            ]}
          />
        </>
      ) : (
        <p className="empty">{t("statistics.total.none")}</p>
      )}
    </section>
  );
}
