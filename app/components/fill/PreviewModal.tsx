import { previewSink } from "~/answer-sink";
import { useMemo, useState } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";
import type { Survey } from "~/domain/survey";
import { FillFlow } from "./FillFlow";
import { pagesOf, type FillPage } from "~/domain/fill-pages";
import { questionNumbers } from "~/domain/question-numbers";

const ok = async () => ({ ok: true as const, data: undefined });

/** The fill flow in a modal for the patient id PREVIEW: every rule applies, nothing is stored (section 2). */
export function PreviewModal({ survey, open, onClose }: { survey: Survey; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t("editor.preview")} size="xl" onClose={onClose}>
      {open ? <Preview survey={survey} /> : null}
    </Modal>
  );
}

/**
 * One run of the preview: it starts on the survey's first page as it is when opened (a question added since
 * the last run gives it a questionnaire, an intro text an intro), as a new case does.
 */
function Preview({ survey }: { survey: Survey }) {
  const [at, setAt] = useState<{ page: FillPage; categoryId?: number }>(() => ({ page: pagesOf(survey)[0] }));
  // Numbered as the editor numbers them, so that each question is found again there.
  const numbers = useMemo(() => new Map(survey.Categories.flatMap((c) => [...questionNumbers(c.Questions)])), [survey]);
  return (
    <FillFlow
      survey={survey}
      patientId="PREVIEW"
      initialAnswers={{}}
      initialPreliminary={{}}
      page={at.page}
      categoryId={at.categoryId ?? null}
      preview
      hydrated
      go={(page, categoryId) => setAt({ page, categoryId })}
      hrefOf={() => "#"}
      sink={previewSink}
      savePreliminary={ok}
      close={ok}
      local={false}
      onRefused={() => undefined}
      numbers={numbers}
    />
  );
}
