import { patientAttributesApi } from "~/contracts/patient-attributes";
import { useState } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";
import type { Category, PatientFormAttribute } from "~/domain/survey";
import { useEditorMutation } from "../editor-api";
import { rulesAffected } from "./rules-affected";
import { RulesLost } from "./RulesLost";

/**
 * Asks before deleting a preliminary question, naming the questions whose show/hide rule goes with it. The
 * API refuses one that was already answered (409); its message shows as a toast and the question stays.
 */
export function DeleteAttributeModal({
  surveyId,
  attribute,
  categories,
  onClose,
}: {
  surveyId: number;
  attribute: PatientFormAttribute;
  categories: readonly Category[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    await mutate(
      patientAttributesApi.remove,
      { params: { id: attribute.Id }, query: { surveyId } },
      "preliminary.deleted",
    );
    setBusy(false);
    onClose();
  };
  return (
    <Modal
      open
      size="s"
      title={t("preliminary.deleteTitle")}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            {t("preliminary.cancel")}
          </button>
          <button type="button" className="btn btn--danger" disabled={busy} onClick={() => void confirm()}>
            {t("preliminary.delete")}
          </button>
        </>
      }
    >
      <p>{t("preliminary.deleteConfirm", { title: attribute.Title })}</p>
      <RulesLost
        rules={rulesAffected(
          categories,
          attribute.AnswerOptions.map((o) => o.Id),
        )}
      />
    </Modal>
  );
}
