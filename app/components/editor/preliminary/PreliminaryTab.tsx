import { Choice } from "~/components/ui/Field";
import { moveCall } from "~/contracts/moves";
import { surveysApi } from "~/contracts/surveys";
import { useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "~/texts";
import { useHydrated } from "~/components/ui/useHydrated";
import type { PatientFormAttribute } from "~/domain/survey";
import { useEditorMutation } from "../editor-api";
import type { MoveKind } from "~/domain/moves";
import { SortableList, type MoveTarget } from "../SortableList";
import type { EditorTabProps } from "../types";
import { AttributeItem } from "./AttributeItem";
import { AttributeModal } from "./AttributeModal";
import { DeleteAttributeModal } from "./DeleteAttributeModal";

type Dialog =
  | { kind: "add" }
  | { kind: "edit"; attribute: PatientFormAttribute }
  | { kind: "delete"; attribute: PatientFormAttribute }
  | null;

const attributeId = (a: PatientFormAttribute) => a.Id;
const attributeLabel = (a: PatientFormAttribute) => a.Title;

/** The patient form's switch, saved on change; a refused change shows the old state again. */
function PatientFormSwitch({
  surveyId,
  enabled,
  changeable,
}: {
  surveyId: number;
  enabled: boolean;
  changeable: boolean;
}) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const id = useId();
  const [checked, setChecked] = useState(enabled);
  const [busy, setBusy] = useState(false);
  useEffect(() => setChecked(enabled), [enabled]);

  const change = async (next: boolean) => {
    // One change at a time. The box is never disabled for it: a disabled box would drop the focus of the
    // person who pressed Space on it to the page's body.
    if (next === checked || busy) return;
    const previous = checked;
    setChecked(next);
    setBusy(true);
    const result = await mutate(
      surveysApi.update,
      { params: { id: surveyId }, body: { IsPatientFormEnabled: next } },
      next ? "preliminary.enabledOn" : "preliminary.enabledOff",
    );
    setBusy(false);
    if (!result.ok) setChecked(previous);
  };

  return (
    <Choice
      id={id}
      label={t("preliminary.enabled")}
      hint={t("preliminary.enabledHint")}
      className="prelim-switch"
      labelClassName="prelim-switch__label"
      hintClassName="prelim-switch__hint"
    >
      {(control) => (
        <input
          {...control}
          type="checkbox"
          checked={checked}
          disabled={!changeable}
          aria-busy={busy || undefined}
          onChange={(e) => void change(e.target.checked)}
        />
      )}
    </Choice>
  );
}

/**
 * The preliminary tab (section 2): the patient form's switch and its preliminary questions, to add, edit,
 * delete and reorder, each with answers to show and reorder. Read-only unless `editable`; without
 * JavaScript everything shows, and only the move buttons act.
 */
export function PreliminaryTab({ survey, editable }: EditorTabProps & { field?: "IntroText" | "OutroText" }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const mutate = useEditorMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = useCallback(() => setDialog(null), []);
  const changeable = editable && hydrated;
  // Without JavaScript every panel is on the page under its own h2 heading.
  const Heading = hydrated ? "h2" : "h3";
  const move = useCallback(
    async (target: MoveTarget) => {
      const call = moveCall(target.kind as MoveKind, target.id, target.newPosition, survey.Id);
      return (await mutate(call.contract, call.request)).ok;
    },
    [mutate, survey.Id],
  );
  const edit = useCallback((attribute: PatientFormAttribute) => setDialog({ kind: "edit", attribute }), []);
  const remove = useCallback((attribute: PatientFormAttribute) => setDialog({ kind: "delete", attribute }), []);

  return (
    <div className="preliminary">
      <PatientFormSwitch surveyId={survey.Id} enabled={survey.IsPatientFormEnabled} changeable={changeable} />
      <Heading className="preliminary__heading">{t("preliminary.list")}</Heading>
      {survey.PatientForm.length === 0 ? <p className="empty">{t("preliminary.empty")}</p> : null}
      <SortableList
        items={survey.PatientForm}
        getId={attributeId}
        getLabel={attributeLabel}
        kind="attribute"
        label={t("preliminary.list")}
        disabled={!editable}
        onMove={move}
        renderItem={(attribute, handle) => (
          <AttributeItem
            attribute={attribute}
            handle={handle}
            sortable={editable}
            changeable={changeable}
            hydrated={hydrated}
            onMove={move}
            onEdit={edit}
            onDelete={remove}
          />
        )}
      />
      {changeable ? (
        <div>
          <button type="button" className="btn btn--primary" onClick={() => setDialog({ kind: "add" })}>
            + {t("preliminary.add")}
          </button>
        </div>
      ) : null}
      {dialog?.kind === "add" ? (
        <AttributeModal surveyId={survey.Id} categories={survey.Categories} onClose={close} />
      ) : null}
      {dialog?.kind === "edit" ? (
        <AttributeModal
          key={dialog.attribute.Id}
          surveyId={survey.Id}
          attribute={dialog.attribute}
          categories={survey.Categories}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "delete" ? (
        <DeleteAttributeModal
          surveyId={survey.Id}
          attribute={dialog.attribute}
          categories={survey.Categories}
          onClose={close}
        />
      ) : null}
    </div>
  );
}
