import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import { DataTable } from "~/components/ui/DataTable";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toaster";
import { exportToFile } from "~/offline/export";
import { cannotSync, pendingFiles, type FillEntry } from "~/offline/fill-entry";
import { countEntries, ENTRIES_EVENT } from "~/offline/fill-store";
import { firstEntries, listEntries } from "~/offline/fill-sync-store";
import { isPersisted } from "~/offline/persistence";
import { syncAll, syncReport } from "~/offline/sync-client";
import { SyncFilesModal } from "./SyncFilesModal";
import { DeleteConfirm, SyncRow } from "./SyncRow";

/** Rows shown at once; more on request, so thousands of queued fills open quickly. */
const PAGE = 50;

const keyOf = (e: FillEntry) => `${e.surveyId}/${e.patientId}`;

/** The unsynced offline fills with their actions (section 2, Sync modal). Closes when none is left. */
export default function SyncModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [entries, setEntries] = useState<FillEntry[] | null>(null);
  const [shown, setShown] = useState(PAGE);
  const [busy, setBusy] = useState(false);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [confirm, setConfirm] = useState<FillEntry | null>(null);
  const [filesOf, setFilesOf] = useState<FillEntry | null>(null);
  // What the last "sync all" did, said inside the modal: the page under it is inert while it is open.
  const [report, setReport] = useState("");
  const closeFiles = useCallback(() => setFilesOf(null), []);

  const [total, setTotal] = useState(0);

  // Only the rows shown are read, so thousands of queued fills open quickly.
  const reload = useCallback(
    async (limit = shown) => {
      const [list, count] = await Promise.all([firstEntries(limit), countEntries()]);
      setEntries(list);
      setTotal(count);
      if (count === 0) onClose();
    },
    [onClose, shown],
  );

  useEffect(() => {
    void reload();
    // The automatic sync may run while the modal is open: its rows follow what is kept.
    const again = () => void reload();
    window.addEventListener(ENTRIES_EVENT, again);
    return () => window.removeEventListener(ENTRIES_EVENT, again);
  }, [reload]);
  useEffect(() => {
    void isPersisted().then(setPersisted);
  }, []);

  const syncEverything = async () => {
    setBusy(true);
    try {
      setReport("");
      // A fill refused for good is not sent again: its row says why, and offers its deletion.
      const summary = await syncAll({ only: (await listEntries()).filter((e) => !cannotSync(e)) });
      setReport(
        syncReport(summary)
          .map((part) => t(part.key, { count: part.count }))
          .join(" "),
      );
      // Shown also when the modal closes because nothing is left.
      if (summary.synced > 0) toast("success", t("offline.syncedCount", { count: summary.synced }));
    } finally {
      setBusy(false);
      await reload();
    }
  };

  const count = total;
  return (
    <Modal
      open
      size="xl"
      title={t("offline.syncTitle")}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={() => void exportToFile()} data-testid="sync-export">
            {t("offline.export")}
          </button>
          {count > 1 ? (
            <button
              type="button"
              className="btn btn--primary"
              disabled={busy}
              onClick={() => void syncEverything()}
              data-testid="sync-all"
            >
              {busy ? t("offline.syncing") : t("offline.syncAll")}
            </button>
          ) : null}
        </>
      }
    >
      {persisted !== null ? (
        <p className="hint" data-testid="storage-persisted" data-persisted={persisted}>
          {t(persisted ? "offline.storagePersisted" : "offline.storageNotPersisted")}
        </p>
      ) : null}
      <p role="status" className="sync-report" data-testid="sync-result">
        {report}
      </p>
      {entries ? (
        <DataTable
          className="sync-table"
          testId="sync-table"
          rows={entries}
          rowId={keyOf}
          columns={[
            { id: "survey", header: t("offline.colSurvey"), sortValue: (e) => e.surveyTitle },
            { id: "patient", header: t("offline.colPatient"), sortValue: (e) => e.patientId },
            { id: "files", header: t("offline.colFiles"), sortValue: (e) => pendingFiles(e).length },
            { id: "actions", header: t("offline.colActions") },
          ]}
          renderRow={(e) => (
            <SyncRow
              entry={e}
              disabled={busy}
              onChanged={reload}
              onDelete={() => setConfirm(e)}
              onShowFiles={() => setFilesOf(e)}
            />
          )}
        />
      ) : (
        <p role="status">{t("offline.loading")}</p>
      )}
      {count > shown ? (
        <button type="button" className="btn" onClick={() => setShown((n) => n + PAGE)}>
          {t("offline.more")}
        </button>
      ) : null}
      <SyncFilesModal entry={filesOf} onClose={closeFiles} />
      <DeleteConfirm
        entry={confirm}
        onDone={async () => {
          setConfirm(null);
          await reload();
        }}
      />
    </Modal>
  );
}
