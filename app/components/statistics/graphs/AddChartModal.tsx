import { Field } from "~/components/ui/Field";
import { useId, useState } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";
import { supportedChartTypes, type ChartType } from "~/domain/dashboards";

/** Searches the chart types and picks several; confirming needs at least one (section 5). */
export function AddChartModal({ onClose, onAdd }: { onClose: () => void; onAdd: (types: ChartType[]) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [q, setQ] = useState("");
  const [chosen, setChosen] = useState<ChartType[]>([]);
  const needle = q.trim().toLocaleLowerCase();
  const shown = supportedChartTypes.filter(
    (c) => !needle || `${t(c.nameKey)} ${t(c.descriptionKey)}`.toLocaleLowerCase().includes(needle),
  );
  const toggle = (type: ChartType) =>
    setChosen((list) => (list.includes(type) ? list.filter((x) => x !== type) : [...list, type]));
  return (
    <Modal
      open
      title={t("statistics.graphs.addTitle")}
      onClose={onClose}
      footer={
        <>
          {chosen.length === 0 ? <p className="field__hint">{t("statistics.graphs.chooseOne")}</p> : null}
          <button type="button" className="btn" onClick={onClose}>
            {t("statistics.graphs.cancel")}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={chosen.length === 0}
            onClick={() => onAdd(chosen)}
          >
            {t("statistics.graphs.confirm")}
          </button>
        </>
      }
    >
      <Field id={`${id}-q`} label={t("statistics.graphs.search")}>
        {(control) => (
          <input {...control} type="search" className="input" value={q} onChange={(e) => setQ(e.target.value)} />
        )}
      </Field>
      {shown.length === 0 ? <p role="status">{t("statistics.graphs.noMatch")}</p> : null}
      <ul className="chart-types">
        {shown.map((c) => (
          <li key={c.type}>
            <label>
              <input type="checkbox" checked={chosen.includes(c.type)} onChange={() => toggle(c.type)} />
              <strong>{t(c.nameKey)}</strong> <span className="chart-types__description">{t(c.descriptionKey)}</span>
            </label>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
