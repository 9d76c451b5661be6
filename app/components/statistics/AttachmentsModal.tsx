import { Form, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/texts";
import { DataTable } from "~/components/ui/DataTable";
import { Field } from "~/components/ui/Field";
import { Modal } from "~/components/ui/Modal";
import { useHydrated } from "~/components/ui/useHydrated";
import type { StatisticsAttachment } from "~/domain/statistics";
import { downloadPath, viewHref, writeView, type StatisticsView } from "~/domain/statistics-view";

/**
 * The files attached to a question's answers (section 2): filter by file type, download all (a zip) or one
 * (a link that expires, opened in a new tab). Forms, so it works without JavaScript too.
 */
export function AttachmentsModal({
  surveyId,
  view,
  questionId,
  title,
  type,
  files,
}: {
  surveyId: number;
  view: StatisticsView;
  questionId: number;
  title: string;
  type: string;
  files: StatisticsAttachment[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [chosenType, setChosenType] = useState(type);
  const types = [...new Set(files.map((f) => f.FileExtension.toLowerCase()))].sort();
  const shown = chosenType ? files.filter((f) => f.FileExtension.toLowerCase() === chosenType) : files;
  const closeHref = viewHref(view, {});
  const here = [...writeView(view).entries(), ["modal", "files"], ["question", String(questionId)]];
  return (
    <Modal
      open
      size="lg"
      title={t("statistics.attachments.title", { title })}
      onClose={() => navigate(closeHref, { replace: true, preventScrollReset: true })}
    >
      <Form method="get" className="files__filter" preventScrollReset>
        {here.map(([name, value]) => (
          <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
        ))}
        <Field id="files-type" label={t("statistics.attachments.type")}>
          <select
            id="files-type"
            name="type"
            className="input"
            value={chosenType}
            onChange={(e) => setChosenType(e.target.value)}
          >
            <option value="">{t("statistics.attachments.allTypes")}</option>
            {types.map((ext) => (
              <option key={ext} value={ext}>
                {ext}
              </option>
            ))}
          </select>
        </Field>
        {!hydrated ? (
          <button type="submit" className="btn">
            {t("statistics.filters.apply")}
          </button>
        ) : null}
      </Form>
      {shown.length === 0 ? (
        <p className="empty">{t("statistics.attachments.none")}</p>
      ) : (
        <DataTable
          className="table files__table"
          caption={t("statistics.attachments.title", { title })}
          captionHidden
          rows={shown}
          rowId={(f) => String(f.Id)}
          columns={[
            { id: "file", header: t("statistics.attachments.file"), sortValue: (f) => f.FileName },
            { id: "patient", header: t("statistics.attachments.patient"), sortValue: (f) => f.PatientId },
            {
              id: "download",
              header: t("statistics.attachments.download"),
              headerHidden: true,
              cell: (f) => (
                <Form method="post" action={downloadPath(surveyId, view)} reloadDocument target="_blank">
                  <input type="hidden" name="intent" value="file" />
                  <input type="hidden" name="id" value={f.Id} />
                  <button
                    type="submit"
                    className="btn btn--small"
                    aria-label={t("statistics.attachments.downloadOne", { name: f.FileName })}
                  >
                    {t("statistics.attachments.download")}
                  </button>
                </Form>
              ),
            },
          ]}
        />
      )}
      <Form method="post" action={downloadPath(surveyId, view)} reloadDocument className="modal__actions">
        <input type="hidden" name="intent" value="zip" />
        <input type="hidden" name="question" value={questionId} />
        {shown.map((f) => (
          <input key={f.Id} type="hidden" name="id" value={f.Id} />
        ))}
        <a className="btn" href={closeHref}>
          {t("modal.close")}
        </a>
        <button type="submit" className="btn btn--primary" disabled={shown.length === 0}>
          {t("statistics.attachments.downloadAll", { count: shown.length })}
        </button>
      </Form>
    </Modal>
  );
}
