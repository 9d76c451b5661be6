import { uploadErrorValues } from "~/domain/uploads";
import { Field } from "~/components/ui/Field";
import { useState } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toaster";
import { isValidPatientId } from "~/domain/patient-id";
import { cannotSync, pendingFiles, type FillEntry } from "~/offline/fill-entry";
import { changePatientId, chooseOverwrite, deleteEntry } from "~/offline/fill-sync-store";
import { syncEntry } from "~/offline/sync-client";

/** One unsynced fill: sync, change patient id (inline), overwrite on a clash, delete (section 2). */
export function SyncRow(props: {
  entry: FillEntry;
  disabled: boolean;
  onChanged: () => Promise<void>;
  onDelete: () => void;
  onShowFiles: () => void;
}) {
  const { entry } = props;
  const { t } = useTranslation();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [newId, setNewId] = useState(entry.patientId);
  const [idProblem, setIdProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const files = pendingFiles(entry);
  const failed = files.filter((f) => f.file.error);
  const clash = entry.syncError === "SYNC_SURVEY_PATIENTID_CLASH";
  // Neither another id nor another try can help a fill refused for good: the row offers its deletion only.
  const refusedForGood = cannotSync(entry);

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      const outcome = await syncEntry(entry.surveyId, entry.patientId, { retryRefused: true });
      if (outcome === "synced") toast("success", t("offline.syncedCount", { count: 1 }));
      if (outcome === "offline") toast("error", t("errors.network"));
      if (outcome === "unauthorized") toast("error", t("offline.signInAgain"));
    } finally {
      setBusy(false);
      await props.onChanged();
    }
  };

  const saveId = async () => {
    const id = newId.trim();
    if (!id || !isValidPatientId(id)) return setIdProblem(t("start.surveyPatientIdInputError"));
    if (id === entry.patientId) return setEditing(false);
    if (!(await changePatientId(entry.surveyId, entry.patientId, id))) return setIdProblem(t("offline.idTaken"));
    setEditing(false);
    await props.onChanged();
  };

  const inputId = `sync-id-${entry.surveyId}-${entry.patientId}`;
  return (
    <tr data-testid="sync-row" data-patient-id={entry.patientId} data-error={entry.syncError ?? ""}>
      <td>{entry.surveyTitle}</td>
      <td>
        {editing ? (
          <span className="sync-table__edit">
            <Field id={inputId} label={t("offline.newIdLabel", { patientId: entry.patientId })} layout="inline">
              <input
                id={inputId}
                className="input"
                value={newId}
                autoFocus
                aria-invalid={Boolean(idProblem)}
                aria-describedby={idProblem ? `${inputId}-err` : undefined}
                onChange={(e) => (setNewId(e.target.value), setIdProblem(null))}
                onKeyDown={(e) => e.key === "Enter" && void saveId()}
              />
            </Field>
            <button type="button" className="btn btn--small" onClick={() => void saveId()}>
              {t("offline.saveId")}
            </button>
            <button type="button" className="btn btn--small" onClick={() => setEditing(false)}>
              {t("offline.cancel")}
            </button>
            {idProblem ? (
              <span id={`${inputId}-err`} className="field__error" role="alert">
                {idProblem}
              </span>
            ) : null}
          </span>
        ) : (
          entry.patientId
        )}
        {entry.syncError ? (
          <p className="field__error" data-testid="sync-error">
            {/* A fill that continued the server's case meets a clash only when the case changed since. */}
            {t(clash && entry.base && !entry.overwrite ? "offline.clashChanged" : `offline.errors.${entry.syncError}`)}
          </p>
        ) : null}
      </td>
      <td>
        {files.length > 0 ? (
          <button
            type="button"
            className="btn btn--small btn--ghost"
            aria-label={t("offline.showFiles", { count: files.length, patientId: entry.patientId })}
            onClick={props.onShowFiles}
            data-testid="sync-files"
          >
            {files.length}
          </button>
        ) : (
          0
        )}
        {failed.length > 0 ? (
          <span className="field__error" title={failed.map((f) => `${f.file.name}: ${f.file.error}`).join("\n")}>
            {" "}
            ({t("offline.filesFailed", { count: failed.length })}:{" "}
            {failed
              .map(
                (f) =>
                  `${f.file.name} – ${t(`uploadErrors.${f.file.error}`, { defaultValue: f.file.error ?? "", ...uploadErrorValues(f.file.name) })}`,
              )
              .join(", ")}
            )
          </span>
        ) : null}
      </td>
      <td>
        {/* The buttons are laid out inside the cell: a cell that is itself a flex box leaves the table's rows. */}
        <div className="sync-table__actions" data-testid="sync-actions">
          {refusedForGood ? null : (
            <button
              type="button"
              className="btn btn--small"
              disabled={busy || props.disabled}
              onClick={() => void run(async () => undefined)}
            >
              {t("offline.sync")}
            </button>
          )}
          {refusedForGood ? null : (
            <button
              type="button"
              className="btn btn--small"
              disabled={busy || editing}
              onClick={() => setEditing(true)}
            >
              {t("offline.changeId")}
            </button>
          )}
          {clash ? (
            <button
              type="button"
              className="btn btn--small"
              disabled={busy}
              onClick={() => void run(() => chooseOverwrite(entry.surveyId, entry.patientId))}
            >
              {t("offline.overwrite")}
            </button>
          ) : null}
          <button type="button" className="btn btn--small btn--danger" disabled={busy} onClick={props.onDelete}>
            {t("offline.delete")}
          </button>
        </div>
      </td>
    </tr>
  );
}

/** Deleting unsynced data always asks first. */
export function DeleteConfirm({ entry, onDone }: { entry: FillEntry | null; onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={entry !== null}
      size="s"
      title={t("offline.deleteTitle")}
      onClose={() => void onDone()}
      footer={
        <>
          <button type="button" className="btn" onClick={() => void onDone()} data-autofocus>
            {t("offline.cancel")}
          </button>
          <button
            type="button"
            className="btn btn--danger"
            data-testid="confirm-delete"
            onClick={async () => {
              if (entry) await deleteEntry(entry.surveyId, entry.patientId);
              await onDone();
            }}
          >
            {t("offline.deleteConfirm")}
          </button>
        </>
      }
    >
      <p>{t("offline.deleteText", { patientId: entry?.patientId ?? "", title: entry?.surveyTitle ?? "" })}</p>
    </Modal>
  );
}
