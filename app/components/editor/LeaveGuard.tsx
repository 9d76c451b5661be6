import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback } from "react";
import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";

/**
 * Asks before the person leaves the editor with changes that are not saved yet: a confirmation inside the
 * app for its own links, the browser's own question for a reload, a typed address or a closed tab.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    useCallback(
      ({
        currentLocation,
        nextLocation,
      }: {
        currentLocation: { pathname: string };
        nextLocation: { pathname: string };
      }) => when && currentLocation.pathname !== nextLocation.pathname,
      [when],
    ),
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!when) return;
        event.preventDefault();
        // Older browsers ask only when a value is set.
        event.returnValue = "";
      },
      [when],
    ),
  );
  const blocked = blocker.state === "blocked";
  return (
    <Modal
      open={blocked}
      title={t("editor.leaveTitle")}
      size="s"
      onClose={() => blocker.reset?.()}
      footer={
        <>
          <button type="button" className="btn" onClick={() => blocker.proceed?.()} data-testid="leave-anyway">
            {t("editor.leaveAnyway")}
          </button>
          <button type="button" className="btn btn--primary" data-autofocus onClick={() => blocker.reset?.()}>
            {t("editor.stay")}
          </button>
        </>
      }
    >
      <p>{t("editor.leaveText")}</p>
    </Modal>
  );
}
