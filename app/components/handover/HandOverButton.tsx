import { lazy, Suspense, useState } from "react";
import { useTranslation } from "~/texts";
import type { HandoverCase } from "~/domain/handover";

const HandOverDialog = lazy(() => import("./HandOverDialog"));

/** The fill page's "Hand to the patient": the dialog and what it needs load only when it is opened. */
export function HandOverButton({ kase }: { kase: HandoverCase }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="handover-open">
      <button type="button" className="btn" onClick={() => setOpen(true)} data-testid="handover-open">
        {t("handover.open")}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <HandOverDialog kase={kase} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
