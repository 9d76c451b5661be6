import { Field } from "~/components/ui/Field";
import { useId, useState } from "react";
import { useTranslation } from "~/texts";
import { isRangeChart, type Chart } from "~/domain/dashboards";

export interface ChartChoice {
  AttributeId?: number;
  QuestionId1?: number;
  QuestionId2?: number;
}

/**
 * The edit form of a range chart (two different questions) or a preliminary-question chart (one question).
 * Save and cancel need a complete choice; cancelling keeps the chart's previous questions.
 */
export function ChartEditor({
  chart,
  options,
  onSave,
  onCancel,
}: {
  chart: Chart;
  options: { Id: number; Title: string }[];
  onSave: (choice: ChartChoice) => void;
  onCancel: (() => void) | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const range = isRangeChart(chart.ChartType);
  const [q1, setQ1] = useState(String(range ? (chart.QuestionId1 ?? "") : (chart.AttributeId ?? "")));
  const [q2, setQ2] = useState(String(chart.QuestionId2 ?? ""));
  const complete = range ? q1 !== "" && q2 !== "" && q1 !== q2 : q1 !== "";
  const select = (key: string, value: string, set: (v: string) => void, labelKey: string) => (
    <Field id={`${id}-${key}`} label={t(`statistics.graphs.${labelKey}`)}>
      {(control) => (
        <select {...control} className="input" value={value} onChange={(e) => set(e.target.value)}>
          <option value="">{t("statistics.graphs.choose")}</option>
          {options.map((o) => (
            <option key={o.Id} value={o.Id}>
              {o.Title}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <form
      className="graph__editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (!complete) return;
        onSave(range ? { QuestionId1: Number(q1), QuestionId2: Number(q2) } : { AttributeId: Number(q1) });
      }}
    >
      {range ? (
        <>
          {select("q1", q1, setQ1, "question1")}
          {select("q2", q2, setQ2, "question2")}
        </>
      ) : (
        select("attr", q1, setQ1, "preQuestion")
      )}
      {!complete ? (
        <p className="field__hint" role="status">
          {t(range ? "statistics.graphs.differentQuestions" : "statistics.graphs.choosePreQuestion")}
        </p>
      ) : null}
      <div className="graph__editor-actions">
        <button type="submit" className="btn btn--primary" disabled={!complete}>
          {t("statistics.graphs.save")}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            {t("statistics.graphs.cancel")}
          </button>
        ) : null}
      </div>
    </form>
  );
}
