import { Link, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import { useHydrated } from "~/components/ui/useHydrated";
import { StaffWords } from "./StaffWords";

/**
 * A waiting message, then the saved message after the delay, then start over and back to the list
 * (section 4). Without JavaScript the saved state shows at once.
 */
export function Finished({
  delayMs,
  surveyId,
  html,
  preview,
}: {
  delayMs: number;
  surveyId: number;
  html?: string;
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSaved(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  const done = saved || !hydrated;
  // Handed over to the patient (decision 058): the patient gives the device back; nothing of staff's.
  const handedOver = Boolean((useRouteLoaderData("root") as { handover?: unknown } | undefined)?.handover);
  return (
    <div className="finished">
      {html ? <div className="rich" dangerouslySetInnerHTML={{ __html: html }} /> : null}
      <p role="status" aria-live="polite" className={done ? "finished__saved" : "finished__waiting"}>
        {done ? t(preview ? "fill.previewDone" : "fill.saved") : t("fill.saving")}
      </p>
      {done && handedOver ? (
        <p className="finished__handover" data-testid="handover-thanks">
          {t("fill.handoverThanks")}
        </p>
      ) : null}
      {done && !preview && !handedOver ? (
        <StaffWords className="finished__actions">
          <StaffActions surveyId={surveyId} />
        </StaffWords>
      ) : null}
    </div>
  );
}

/** Staff's next steps, in staff's language (StaffWords). */
function StaffActions({ surveyId }: { surveyId: number }) {
  const { t } = useTranslation();
  return (
    <>
      <Link to={`/survey/${surveyId}`} className="btn btn--primary">
        {t("fill.startOver")}
      </Link>
      <Link to="/surveys" className="btn">
        {t("fill.backToList")}
      </Link>
    </>
  );
}
