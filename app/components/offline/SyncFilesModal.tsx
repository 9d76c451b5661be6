import { uploadErrorValues } from "~/domain/uploads";
import { useEffect } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";
import { pendingFiles, type FillEntry } from "~/offline/fill-entry";
import { SYNC_START_EVENT } from "~/offline/sync-client";

const KB = 1024;

function size(bytes: number, locale: string): string {
  const format = (n: number) => n.toLocaleString(locale, { maximumFractionDigits: 1 });
  return bytes < KB * KB ? `${format(bytes / KB)} KB` : `${format(bytes / KB / KB)} MB`;
}

/**
 * The files of one unsynced fill that wait for their upload (the sync modal's "files to upload"). A sync
 * that starts closes it (section 2): the files it lists are on their way and the list would go stale.
 */
export function SyncFilesModal({ entry, onClose }: { entry: FillEntry | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();

  useEffect(() => {
    if (!entry) return;
    window.addEventListener(SYNC_START_EVENT, onClose);
    return () => window.removeEventListener(SYNC_START_EVENT, onClose);
  }, [entry, onClose]);

  const files = entry ? pendingFiles(entry) : [];
  return (
    <Modal
      open={entry !== null}
      size="s"
      title={t("offline.filesTitle", { patientId: entry?.patientId ?? "" })}
      onClose={onClose}
      footer={
        <button type="button" className="btn" onClick={onClose}>
          {t("offline.close")}
        </button>
      }
    >
      <table className="sync-table" data-testid="sync-files-table">
        <thead>
          <tr>
            <th scope="col">{t("offline.fileName")}</th>
            <th scope="col">{t("offline.fileSize")}</th>
            <th scope="col">{t("offline.fileState")}</th>
          </tr>
        </thead>
        <tbody>
          {files.map(({ questionId, file }) => (
            <tr key={`${questionId}/${file.name}`}>
              <td>{file.name}</td>
              <td>{size(file.bytes.byteLength, i18n.language)}</td>
              <td className={file.error ? "field__error" : undefined}>
                {file.error
                  ? t(`uploadErrors.${file.error}`, { defaultValue: file.error, ...uploadErrorValues(file.name) })
                  : t("offline.fileWaiting")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
