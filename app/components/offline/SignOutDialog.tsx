import { useState } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";
import type { FillEntry } from "~/offline/fill-entry";

interface SignOutDialogProps {
  entries: FillEntry[];
  /** Sync now; answers how many fills are still not on the server. */
  syncNow: () => Promise<number>;
  /** Sign out: the fills stay on this device, locked for this person alone. */
  signOut: () => void;
  onClose: () => void;
}

/**
 * Before signing out with work not on the server (decision 048): how many cases of which surveys, the
 * offer to sync now, and, when that cannot happen, that the work stays locked on this device for this
 * person alone, synced when they sign in here again.
 */
export default function SignOutDialog({ entries, syncNow, signOut, onClose }: SignOutDialogProps) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(entries.length);
  const [state, setState] = useState<"ask" | "syncing" | "failed">("ask");
  const titles = [...new Set(entries.map((e) => e.surveyTitle))].sort((a, b) => a.localeCompare(b));
  const sync = async () => {
    setState("syncing");
    const remaining = await syncNow().catch(() => left);
    setLeft(remaining);
    if (remaining === 0) signOut();
    else setState("failed");
  };
  return (
    <Modal
      open
      title={t("signOut.title")}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} data-autofocus="">
            {t("signOut.cancel")}
          </button>
          <button type="button" className="btn" onClick={signOut} data-testid="sign-out-locked">
            {t("signOut.keepLocked")}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void sync()}
            disabled={state === "syncing"}
            data-testid="sign-out-sync"
          >
            {state === "syncing" ? t("signOut.syncing") : t("signOut.syncNow")}
          </button>
        </>
      }
    >
      <p data-testid="sign-out-unsynced">{t("signOut.unsynced", { count: left })}</p>
      <ul className="sign-out__surveys">
        {titles.map((title) => (
          <li key={title}>{title}</li>
        ))}
      </ul>
      <p>{t("signOut.lockedNote")}</p>
      {state === "failed" ? (
        <p role="alert" data-testid="sign-out-sync-failed">
          {t("signOut.syncFailed", { count: left })}
        </p>
      ) : null}
    </Modal>
  );
}
