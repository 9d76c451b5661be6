import { Form, useLocation, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/texts";
import { StatusLabel } from "~/components/surveys/StatusLabel";
import { useTabHash } from "~/components/ui/HashTabs";
import { Modal } from "~/components/ui/Modal";
import { SearchBox } from "~/components/ui/SearchBox";
import { useHydrated } from "~/components/ui/useHydrated";
import type { BenchmarkEntry } from "~/domain/survey";
import { viewHref, writeView, type StatisticsView } from "~/domain/statistics-view";

/**
 * Choose the survey to compare with (section 2): search, select one, "Benchmark now". Its open state and
 * search live in the URL, so it works without JavaScript; confirming needs a selected survey. Searching,
 * cancelling and confirming come back to the tab it was opened on (the URL's hash).
 */
export function BenchmarkModal({ view, q, entries }: { view: StatisticsView; q: string; entries: BenchmarkEntry[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<number | null>(null);
  const hash = useTabHash();
  const here = `${useLocation().pathname}${hash}`;
  const closeHref = `${viewHref(view, {})}${hash}`;
  const kept = [...writeView({ ...view, benchmark: null }).entries()];
  return (
    <Modal
      open
      size="lg"
      title={t("statistics.benchmark.title")}
      onClose={() => navigate(closeHref, { replace: true, preventScrollReset: true })}
    >
      <SearchBox
        q={q}
        label={t("statistics.benchmark.search")}
        placeholder={t("statistics.benchmark.search")}
        buttonLabel={t("surveys.searchButton")}
        name="mq"
        action={here}
        keep={{ ...Object.fromEntries(kept), modal: "benchmark" }}
      />
      <Form method="get" action={here} className="bench-pick" preventScrollReset>
        {kept.map(([name, value]) => (
          <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
        ))}
        {entries.length === 0 ? (
          <p className="empty">{t("statistics.benchmark.none")}</p>
        ) : (
          <fieldset className="bench-pick__list">
            <legend className="visually-hidden">{t("statistics.benchmark.title")}</legend>
            {entries.map((e) => (
              <label key={e.Id} className="bench-pick__entry">
                <input type="radio" name="benchmark" value={e.Id} required onChange={() => setChosen(e.Id)} />
                <span className="bench-pick__title">{e.Title}</span>
                <span className="bench-pick__dates">{[e.StartDate, e.EndDate].filter(Boolean).join(" - ")}</span>
                <StatusLabel status={e.Status} />
              </label>
            ))}
          </fieldset>
        )}
        <div className="modal__actions">
          <a className="btn" href={closeHref}>
            {t("modal.cancel")}
          </a>
          <button
            type="submit"
            className="btn btn--primary"
            disabled={entries.length === 0 || (hydrated && chosen === null)}
          >
            {t("statistics.benchmark.now")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
