import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/texts";
import type { AnswerStatistics, QuestionStatistics } from "~/domain/statistics";
import { formatNumber } from "~/domain/number-format";
import { questionTypeName } from "~/domain/question-types";
import { storedToWireDateTime } from "~/domain/response-values";
import { PieChart, ShareBars } from "./PieChart";
import { ScoreBadge } from "./ScoreBadge";
import { FreeTextShortList } from "./FreeTextShortList";
import { viewHref, type StatisticsView } from "~/domain/statistics-view";
import { WordCloud } from "./WordCloud";
import { DataTable, type TableColumn } from "~/components/ui/DataTable";
import { useLabelLanguage } from "./LanguageChoice";

export interface QuestionStatsProps {
  q: QuestionStatistics;
  /** The benchmark survey's figures of the paired question, while benchmarking. */
  other: QuestionStatistics | null;
  benchmarking: boolean;
  view: StatisticsView;
  /** The questions that take several answers (their shares can add up past 100 %: bars, no pie). */
  several: ReadonlySet<number>;
  depth?: number;
}

const isChoice = (type: number) => [1, 2, 6, 7].includes(type);

/** One question's figures by its kind (section 2 and 4): choices, counted values, free text, attachments, score. */
export function QuestionStats({ q, other, benchmarking, view, several, depth = 0 }: QuestionStatsProps) {
  const { t } = useTranslation();
  const label = useLabelLanguage();
  const Heading = depth === 0 ? "h3" : "h4";
  return (
    <article className={`qstat${depth > 0 ? " qstat--sub" : ""}`} aria-labelledby={`qstat-${q.QuestionId}`}>
      <header className="qstat__head">
        <Heading id={`qstat-${q.QuestionId}`} className="qstat__title" {...label}>
          {q.QuestionTitle}
        </Heading>
        <span className="qstat__kind">{t(`questionType.${questionTypeName(q.Type)}`)}</span>
        {q.IsScoredQuestion ? (
          <ScoreBadge
            flag={q.ScoreFlag}
            percentage={q.ScorePercentage}
            result={q.ScoreResult}
            max={q.ScoreMax}
            percent={view.percent}
          />
        ) : null}
      </header>
      {/* The cases that answered and those that were shown the question but left it open. */}
      <p className="qstat__total">
        {t("statistics.answered", { count: q.TotalQuestionResponses })},{" "}
        {t("statistics.notAnswered", { count: q.NotAnswered })}
        {benchmarking ? (
          <span className="qstat__bench">
            {" "}
            · {t("statistics.benchmark.answered", { count: other?.TotalQuestionResponses ?? 0 })},{" "}
            {t("statistics.notAnswered", { count: other?.NotAnswered ?? 0 })}
          </span>
        ) : null}
      </p>
      {isChoice(q.Type) ? (
        <ChoiceTable q={q} other={other} benchmarking={benchmarking} view={view} several={several} depth={depth} />
      ) : null}
      {q.Type === 3 || q.Type === 4 ? <CountedValues q={q} other={other} benchmarking={benchmarking} /> : null}
      {q.Type === 5 ? (
        <>
          <FreeTextShortList q={q} detailsHref={viewHref(view, {}) + `&modal=freetext&question=${q.QuestionId}`} />
          {view.cloud ? (
            <WordCloud words={q.WordCloud} label={t("statistics.wordCloudOf", { title: q.QuestionTitle })} />
          ) : null}
        </>
      ) : null}
      {q.AllowFileAttachments ? (
        <Link
          className="btn btn--small"
          preventScrollReset
          to={viewHref(view, {}) + `&modal=files&question=${q.QuestionId}`}
        >
          {t("statistics.attachments.button", { count: q.NumberOfFileAttachments })}
        </Link>
      ) : null}
    </article>
  );
}

/**
 * A table that may be wider than a phone (the benchmark's columns) scrolls in its own box; the box then
 * takes the keyboard focus, so that it scrolls without a mouse too.
 */
function TableBox({ scrolls, label, children }: { scrolls: boolean; label: string; children: ReactNode }) {
  if (!scrolls) return <>{children}</>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

function ChoiceTable({
  q,
  other,
  benchmarking,
  view,
  several,
  depth,
}: Required<Omit<QuestionStatsProps, "depth">> & { depth: number }) {
  const { t, i18n } = useTranslation();
  const pct = (n: number) => `${formatNumber(n, i18n.language, 2, true)} %`;
  const paired = (a: AnswerStatistics) => other?.AnswerStatistics.find((o) => o.PairedId === a.AnswerOptionId) ?? null;
  const many = several.has(q.QuestionId);
  return (
    <>
      <div className={view.pie ? "qstat__choices qstat__choices--pie" : "qstat__choices"}>
        <TableBox scrolls={benchmarking} label={t("statistics.answersOf", { title: q.QuestionTitle })}>
          <DataTable
            className="table qstat__table"
            caption={t("statistics.answersOf", { title: q.QuestionTitle })}
            captionHidden
            rows={q.AnswerStatistics}
            rowId={(a) => String(a.AnswerOptionId)}
            columns={[
              { id: "answer", header: t("statistics.answer"), rowHeader: true, sortValue: (a) => a.AnswerOptionText },
              {
                id: "count",
                header: t("statistics.count"),
                numeric: true,
                sortValue: (a) => a.TotalAnswerOptionResponses,
              },
              {
                id: "percent",
                header: t("statistics.percent"),
                numeric: true,
                sortValue: (a) => a.PercentageAnswerOptionResponses,
                cell: (a) => pct(a.PercentageAnswerOptionResponses),
              },
              ...(benchmarking
                ? ([
                    {
                      id: "benchmarkCount",
                      header: t("statistics.benchmark.count"),
                      numeric: true,
                      sortValue: (a) => paired(a)?.TotalAnswerOptionResponses,
                    },
                    {
                      id: "benchmarkPercent",
                      header: t("statistics.benchmark.percent"),
                      numeric: true,
                      sortValue: (a) => paired(a)?.PercentageAnswerOptionResponses,
                      cell: (a) => {
                        const b = paired(a);
                        return b ? pct(b.PercentageAnswerOptionResponses) : "–";
                      },
                    },
                  ] satisfies TableColumn<AnswerStatistics>[])
                : []),
            ]}
          />
        </TableBox>
        {view.pie && many ? (
          <div className="qstat__chart">
            <ShareBars
              label={t("statistics.barsOf", { title: q.QuestionTitle })}
              bars={q.AnswerStatistics.map((a) => ({
                label: a.AnswerOptionText,
                percent: a.PercentageAnswerOptionResponses,
                share: pct(a.PercentageAnswerOptionResponses),
              }))}
            />
            <p className="qstat__note">{t("statistics.noPieForSeveral")}</p>
          </div>
        ) : view.pie ? (
          <PieChart
            label={t("statistics.pieOf", { title: q.QuestionTitle })}
            legendLabel={t("statistics.pieKeyOf", { title: q.QuestionTitle })}
            slices={q.AnswerStatistics.map((a) => ({
              label: a.AnswerOptionText,
              value: a.TotalAnswerOptionResponses,
              share: pct(a.PercentageAnswerOptionResponses),
            }))}
          />
        ) : null}
      </div>
      {q.AnswerStatistics.filter((a) => a.SubQuestionStatistics.length > 0).map((a) => (
        <section
          key={a.AnswerOptionId}
          className="qstat__subs"
          aria-label={t("statistics.underAnswer", { answer: a.AnswerOptionText })}
        >
          <p className="qstat__under">{t("statistics.underAnswer", { answer: a.AnswerOptionText })}</p>
          {a.SubQuestionStatistics.map((sub) => (
            <QuestionStats
              key={sub.QuestionId}
              q={sub}
              other={paired(a)?.SubQuestionStatistics.find((s) => s.PairedId === sub.QuestionId) ?? null}
              benchmarking={benchmarking}
              view={view}
              several={several}
              depth={depth + 1}
            />
          ))}
        </section>
      ))}
    </>
  );
}

function CountedValues({
  q,
  other,
  benchmarking,
}: {
  q: QuestionStatistics;
  other: QuestionStatistics | null;
  benchmarking: boolean;
}) {
  const { t, i18n } = useTranslation();
  const show = (v: number | string | null | undefined) => {
    if (v === null || v === undefined) return "–";
    if (typeof v === "number") return formatNumber(v, i18n.language) + (q.Unit ? ` ${q.Unit}` : "");
    // Date-times are wall-clock times as entered: shown from the text, never shifted by a time zone.
    return storedToWireDateTime(v) || v.split("-").reverse().join(".");
  };
  const c = q.CountedValuesStatistics;
  const o = other?.CountedValuesStatistics ?? null;
  if (!c) return null;
  return (
    <div className="qstat__counted">
      <dl className="qstat__summary">
        {(["Min", "Max", "Average"] as const).map((k) => (
          <div key={k}>
            <dt>{t(`statistics.${k.toLowerCase()}`)}</dt>
            <dd>
              {show(c[k])}
              {benchmarking ? (
                <span className="qstat__bench">
                  {" "}
                  ({t("statistics.benchmark.short")}: {show(o?.[k])})
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
      <DataTable
        className="table qstat__table"
        caption={t("statistics.valuesOf", { title: q.QuestionTitle })}
        captionHidden
        rows={c.CountedValues}
        rowId={(v) => String(v.Value)}
        columns={[
          // Days as YYYY-MM-DD sort by their text.
          {
            id: "value",
            header: t("statistics.value"),
            rowHeader: true,
            sortValue: (v) => v.Value,
            cell: (v) => show(v.Value),
          },
          { id: "count", header: t("statistics.count"), numeric: true, sortValue: (v) => v.Count },
        ]}
      />
      {c.CountedValuesTruncated ? <p className="qstat__note">{t("statistics.valuesTruncated")}</p> : null}
    </div>
  );
}
