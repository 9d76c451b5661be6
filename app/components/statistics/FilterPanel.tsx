import { Form, Link, useSubmit } from "@remix-run/react";
import { useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { DateField } from "~/components/editor/DateField";
import { wireToIsoDate } from "~/domain/dates";
import type { StatisticsFilterData } from "~/domain/statistics";
import { languageName } from "~/domain/content-languages";
import { MultiSelect } from "./MultiSelect";
import { hasFilters, viewHref, writeView, type StatisticsView } from "~/domain/statistics-view";

/**
 * The collapsible filters (section 2): patient ids, teams, start and end date, the language a case was filled
 * in (when the survey has several, docs/decisions/056-statistics-languages.md), who answered it (staff, the
 * patient by link or on a handed-over device, docs/decisions/057-patient-links.md), one multi-select per
 * preliminary question. A GET form, so a filtered view is a link; with JavaScript the statistics reload
 * when a selector closes or a date changes, without it the apply button submits.
 */
export function FilterPanel({
  view,
  filterData,
  patientIds,
}: {
  view: StatisticsView;
  filterData: StatisticsFilterData;
  patientIds: string[];
}) {
  const { t, i18n } = useTranslation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const f = view.filters;
  const [from, setFrom] = useState(f.StartDateTime ?? "");
  const [to, setTo] = useState(f.EndDateTime ?? "");
  const apply = () => form.current && submit(form.current, { preventScrollReset: true, replace: true });
  const onDate = (set: (v: string) => void) => (value: string) => {
    set(value);
    // A date changes the statistics once it is complete (or cleared).
    if (value === "" || wireToIsoDate(value)) setTimeout(apply, 0);
  };
  // What the filters do not hold is kept as it is: benchmark, category, display toggles.
  const kept = [...writeView({ ...view, filters: {} }).entries()];
  return (
    <details className="stats-filters" open={hasFilters(f) || undefined}>
      <summary className="stats-filters__summary">{t("statistics.filters.title")}</summary>
      <Form method="get" ref={form} className="stats-filters__form" preventScrollReset>
        {kept.map(([name, value]) => (
          <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
        ))}
        <MultiSelect
          name="patient"
          label={t("statistics.filters.patients")}
          choices={patientIds.map((p) => ({ value: p, label: p }))}
          selected={f.PatientIds ?? []}
          onClose={(changed) => changed && apply()}
        />
        {filterData.Teams.length > 0 ? (
          <MultiSelect
            name="team"
            label={t("statistics.filters.teams")}
            choices={filterData.Teams.map((team) => ({ value: String(team.Id), label: team.Name }))}
            selected={(f.TeamIdsFilter ?? []).map(String)}
            onClose={(changed) => changed && apply()}
          />
        ) : null}
        <DateField name="from" label={t("statistics.filters.from")} value={from} onChange={onDate(setFrom)} />
        <DateField name="to" label={t("statistics.filters.to")} value={to} min={from} onChange={onDate(setTo)} />
        {filterData.Languages.length > 1 ? (
          <MultiSelect
            name="caseLang"
            label={t("statistics.filters.languages")}
            choices={filterData.Languages.map((lang) => ({ value: lang, label: languageName(lang, i18n.language) }))}
            selected={f.Languages ?? []}
            onClose={(changed) => changed && apply()}
          />
        ) : null}
        <MultiSelect
          name="respondent"
          label={t("statistics.filters.respondents")}
          choices={filterData.Respondents.map((r) => ({ value: r, label: t(`statistics.filters.respondent.${r}`) }))}
          selected={f.Respondents ?? []}
          onClose={(changed) => changed && apply()}
        />
        {filterData.PreliminaryQuestions.map((q) => (
          <MultiSelect
            key={q.Id}
            name={`pq${q.Id}`}
            label={q.Title}
            choices={q.AnswerOptions.map((o) => ({ value: String(o.Id), label: o.Text }))}
            selected={(f.PreliminaryQuestionsSelection?.[String(q.Id)] ?? []).map(String)}
            onClose={(changed) => changed && apply()}
          />
        ))}
        <div className="stats-filters__actions">
          <button type="submit" className="btn btn--primary">
            {t("statistics.filters.apply")}
          </button>
          <Link to={viewHref(view, { filters: {} })} className="btn" preventScrollReset>
            {t("statistics.filters.clear")}
          </Link>
        </div>
      </Form>
    </details>
  );
}
