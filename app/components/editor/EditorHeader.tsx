import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/texts";
import { StatusLabel } from "~/components/surveys/StatusLabel";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { periodErrors, pushedEndDate, todayIso, wireToIsoDate } from "~/domain/dates";
import { SurveyInfoFormSchema } from "~/domain/editor-forms";
import { parseForm } from "~/domain/forms";
import type { Survey } from "~/domain/survey";
import type { SurveyStatus } from "~/domain/survey-status";
import { useOnline } from "~/offline/connectivity";
import { DateField } from "./DateField";
import { EditableTitle } from "./EditableTitle";
import { LeaveGuard } from "./LeaveGuard";
import { useAnyUnsaved } from "./saving";
import { canPublish, PublishCheck } from "./PublishCheck";

interface EditorHeaderProps {
  /** Opens the fill flow as a preview (patient id PREVIEW). */
  onPreview: () => void;
  survey: Pick<Survey, "Id" | "Title" | "StartDate" | "EndDate" | "Categories" | "PatientForm"> & {
    Status: SurveyStatus;
  };
  editable: boolean;
  canApprove: boolean;
  confirm: "publish" | "unpublish" | null;
  hydrated: boolean;
  /** The header form's last answer from the server: its field errors and the values as they were sent. */
  lastResult?: SubmissionResult<string[]> | null;
}

const constraint = getZodConstraint(SurveyInfoFormSchema);

/** Title, period, status and the survey-wide actions of the editor (section 2, Editor). */
/** Whether a period's start (DD.MM.YYYY) is after today: people can fill the survey only from then on. */
function startsLater(startDate: string): boolean {
  const start = wireToIsoDate(startDate);
  return start !== null && start > todayIso();
}

export function EditorHeader(props: EditorHeaderProps) {
  const { survey, editable, canApprove, confirm, hydrated, onPreview, lastResult } = props;
  const { t } = useTranslation();
  const online = useOnline();
  const navigation = useNavigation();
  // The form refused by the server shows the values as they were typed (an empty one is not in the answer),
  // beside their messages.
  const sent = (lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const typed = (name: string, stored: string) =>
    typeof sent[name] === "string" ? sent[name] : lastResult ? "" : stored;
  const [start, setStart] = useState(() => typed("startDate", survey.StartDate));
  const [end, setEnd] = useState(() => typed("endDate", survey.EndDate));
  const [form, fields] = useForm({
    id: "survey-info",
    lastResult,
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, SurveyInfoFormSchema, { keepEmpty: true }),
  });
  // The period's rule (the schema's own) as it is typed; the form's answer adds what the server found.
  const errors = periodErrors(start, end);
  const fieldError = (live: string | undefined, answered: string[] | undefined) =>
    live === "invalid"
      ? t("editor.dateInvalid")
      : live === "beforeStart"
        ? t("editor.endBeforeStart")
        : answered?.length
          ? t(answered[0])
          : null;
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  // The period is saved with the Save button (section 2); until then the page says so and asks before
  // the person leaves it.
  const dirty = editable && hydrated && (start !== survey.StartDate || end !== survey.EndDate);
  const here = `/survey/${survey.Id}/edit`;
  // Any other field of the editor not saved yet (the title, the texts): the same question before leaving.
  const anyUnsaved = useAnyUnsaved();

  return (
    <div className="editor-head">
      <Form method="post" className="editor-head__form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        <div className="editor-head__title">
          <EditableTitle
            title={survey.Title}
            editable={editable}
            hydrated={hydrated}
            typed={lastResult ? typed("title", survey.Title) : undefined}
            error={fields.title.errors?.length ? t(fields.title.errors[0]) : null}
          />
          <StatusLabel status={survey.Status} />
        </div>
        <div className="editor-head__dates">
          <DateField
            name="startDate"
            label={t("editor.startDate")}
            value={start}
            disabled={!editable}
            error={fieldError(errors.start, fields.startDate.errors)}
            onChange={(v) => {
              setStart(v);
              setEnd((current) => pushedEndDate(v, current));
            }}
          />
          <DateField
            name="endDate"
            label={t("editor.endDate")}
            value={end}
            min={start}
            disabled={!editable}
            error={fieldError(errors.end, fields.endDate.errors)}
            onChange={setEnd}
          />
        </div>
      </Form>
      <div className="editor-head__actions">
        {dirty ? (
          <span className="save-state" role="status" data-testid="unsaved">
            {t("editor.unsaved")}
          </span>
        ) : null}
        {editable ? (
          <button
            type="submit"
            form="survey-info"
            className="btn btn--primary"
            // Without JavaScript the page cannot follow a corrected value: the server checks it instead.
            disabled={saving || !online || (hydrated && Object.keys(errors).length > 0)}
          >
            {t("editor.save")}
          </button>
        ) : null}
        {canApprove ? (
          <Link to={`/survey/${survey.Id}/trail`} className="btn btn--ghost" data-testid="editor-trail">
            {t("audit.toTrail")}
          </Link>
        ) : null}
        {canApprove && survey.Status === "Draft" ? (
          <Link to={`${here}?confirm=publish`} className="btn" preventScrollReset>
            {t("editor.publish")}
          </Link>
        ) : null}
        {canApprove && survey.Status !== "Draft" && survey.Status !== "Archived" ? (
          <Link to={`${here}?confirm=unpublish`} className="btn" preventScrollReset>
            {t("editor.unpublish")}
          </Link>
        ) : null}
        {/* Last in the row: it comes with the page's scripts, and a button put in before the others would move
            them under a pointer that is about to press one. */}
        {hydrated ? (
          <button type="button" className="btn" onClick={onPreview}>
            {t("editor.preview")}
          </button>
        ) : null}
      </div>
      {!editable ? (
        <p className="notice" role="note">
          {t(
            survey.Status === "Draft"
              ? "editor.readOnlyNoEditor"
              : survey.Status === "Archived"
                ? "editor.readOnlyArchived"
                : "editor.readOnlyNotDraft",
          )}
        </p>
      ) : null}
      <LeaveGuard when={(dirty && !saving) || anyUnsaved} />
      <ConfirmDialog
        open={confirm === "publish"}
        title={t("editor.publishTitle")}
        confirmLabel={t("editor.publish")}
        cancelLabel={t("surveys.cancel")}
        cancelHref={here}
        fields={{ intent: "publish" }}
        confirmDisabled={!canPublish(survey)}
      >
        <p>
          {startsLater(survey.StartDate)
            ? t("editor.publishConfirmLater", { date: survey.StartDate })
            : t("editor.publishConfirm")}
        </p>
        <PublishCheck survey={survey} />
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "unpublish"}
        title={t("editor.unpublishTitle")}
        confirmLabel={t("editor.unpublish")}
        cancelLabel={t("surveys.cancel")}
        cancelHref={here}
        fields={{ intent: "unpublish" }}
        danger
      >
        <p>{t("editor.unpublishConfirm")}</p>
      </ConfirmDialog>
    </div>
  );
}
