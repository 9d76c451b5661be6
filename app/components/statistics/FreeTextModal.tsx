import { statisticsApi } from "~/contracts/statistics";
import { Field } from "~/components/ui/Field";
import { callApi } from "~/api-client";
import { Form, Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { DataTable } from "~/components/ui/DataTable";
import { Modal } from "~/components/ui/Modal";
import { SEARCH_DEBOUNCE_MS } from "~/components/ui/SearchBox";
import { useHydrated } from "~/components/ui/useHydrated";
import { useRefusal } from "~/components/ui/useRefusal";
import { DISPLAY_TIME_ZONE, formatDateTime } from "~/domain/dates";
import type { FreeTextPage } from "~/domain/statistics";
import { viewHref, writeView, type StatisticsView } from "~/domain/statistics-view";

/** Answers loaded each time the list is scrolled to its end (section 9). */
const MORE = 15;

interface FreeTextModalProps {
  view: StatisticsView;
  surveyId: number;
  questionId: number;
  title: string;
  q: string;
  take: number;
  page: FreeTextPage;
  /** The survey's approvers: each patient id links to its case's history (decision 028). */
  historyLinks?: boolean;
}

/**
 * Every free-text answer of a question (section 2): a search (600 ms after typing stops), a table that loads
 * 15 more when scrolled to its end and sorts the answers loaded, and the counts. Without JavaScript the search is a form and "show more"
 * a link.
 */
export function FreeTextModal({
  view,
  surveyId,
  questionId,
  title,
  q,
  take,
  page,
  historyLinks = false,
}: FreeTextModalProps) {
  const { t } = useTranslation();
  const refuse = useRefusal();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [search, setSearch] = useState(q);
  const [list, setList] = useState(page);
  const [loading, setLoading] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const closeHref = viewHref(view, {});
  const here = [...writeView(view).entries(), ["modal", "freetext"], ["question", String(questionId)]];

  const fetchPage = async (filter: string, skip: number) => {
    setLoading(true);
    const result = await callApi(statisticsApi.freeText, {
      params: { surveyId, questionId },
      query: { take: MORE, skip, filterString: filter || undefined },
      body: view.filters,
    });
    setLoading(false);
    if (result.ok) return result.data;
    refuse(result);
    return null;
  };

  useEffect(() => {
    const target = end.current;
    if (!target || !hydrated) return;
    const observer = new IntersectionObserver(async ([entry]) => {
      if (!entry.isIntersecting || loading || list.Data.length >= list.Total) return;
      const next = await fetchPage(search, list.Data.length);
      if (next) setList((current) => ({ Data: [...current.Data, ...next.Data], Total: next.Total }));
    });
    observer.observe(target);
    return () => observer.disconnect();
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Modal
      open
      size="xl"
      title={t("statistics.freeText.title", { title })}
      onClose={() => navigate(closeHref, { replace: true, preventScrollReset: true })}
    >
      <Form
        method="get"
        role="search"
        className="search"
        preventScrollReset
        onSubmit={() => clearTimeout(timer.current)}
      >
        {here.map(([name, value]) => (
          <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
        ))}
        <Field id="freetext-search" label={t("statistics.freeText.search")} layout="inline">
          <input
            id="freetext-search"
            type="search"
            name="mq"
            className="search__input"
            placeholder={t("statistics.freeText.search")}
            value={search}
            onChange={(event) => {
              const value = event.target.value;
              setSearch(value);
              clearTimeout(timer.current);
              timer.current = setTimeout(async () => {
                const first = await fetchPage(value, 0);
                if (first) setList(first);
              }, SEARCH_DEBOUNCE_MS);
            }}
          />
        </Field>
        <button type="submit" className="search__button" aria-label={t("surveys.searchButton")}>
          ⌕
        </button>
      </Form>
      <p className="freetext__count" role="status">
        {t("statistics.freeText.count", { shown: list.Data.length, total: list.Total, count: list.Total })}
      </p>
      {/* Scrolls in its own box, by keyboard too; its end loads the next answers. */}
      <div className="freetext__all" tabIndex={0} role="region" aria-label={t("statistics.freeText.title", { title })}>
        <DataTable
          className="table freetext__table"
          caption={t("statistics.freeText.title", { title })}
          captionHidden
          rows={list.Data}
          rowId={(_, i) => String(i)}
          columns={[
            {
              id: "answer",
              header: t("statistics.freeText.answer"),
              sortValue: (r) => r.Response,
              cell: (r) => <span className="freetext__text">{r.Response}</span>,
            },
            {
              id: "patient",
              header: t("statistics.freeText.patient"),
              sortValue: (r) => r.PatientId,
              cell: (r) =>
                historyLinks ? (
                  <Link
                    to={`/survey/${surveyId}/history?patientId=${encodeURIComponent(r.PatientId)}`}
                    aria-label={t("statistics.freeText.history", { patientId: r.PatientId })}
                  >
                    {r.PatientId}
                  </Link>
                ) : (
                  r.PatientId
                ),
            },
            {
              id: "date",
              header: t("statistics.freeText.date"),
              sortValue: (r) => r.DateTime,
              cell: (r) => formatDateTime(r.DateTime, false, DISPLAY_TIME_ZONE),
            },
          ]}
        />
        <div ref={end} aria-hidden="true" className="freetext__end" />
      </div>
      {!hydrated && list.Data.length < list.Total ? (
        <a className="btn" href={`?${new URLSearchParams([...here, ["mq", q], ["take", String(take + MORE)]])}`}>
          {t("statistics.freeText.more")}
        </a>
      ) : null}
      {loading ? <p className="freetext__loading">{t("statistics.loading")}</p> : null}
    </Modal>
  );
}
