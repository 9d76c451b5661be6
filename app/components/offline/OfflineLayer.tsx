import { apiUrl } from "~/contracts/contract";
import { healthApi } from "~/contracts/health";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { useToast } from "~/components/ui/Toaster";
import { withTexts } from "~/locale-files";
import { afterLoad } from "~/offline/after-load";
import { reportNetworkError, reportOnline, useOnline } from "~/offline/connectivity";
import { countEntries } from "~/offline/fill-store";
import { downloadedIds } from "~/offline/survey-store";
import type { LockedWork } from "~/offline/locked-work";
import { TYPED_KEY } from "~/offline/typed-key";
import { HOLDER_EVENT, LOCKED_NOTICE_DAYS, requireHolder } from "~/offline/vault";

const SyncModal = lazy(withTexts(() => import("./SyncModal"), ["sync"]));

/** Health poll while offline (section 9: every 5 s). */
export const HEALTH_POLL_MS = 5000;

/**
 * Values typed on a fill page that went before they were kept (decision 038): delivered by any page but
 * that case's own fill page, which takes them back itself.
 */
async function deliverTypedValues() {
  if (!Object.keys(window.localStorage).some((key) => key.startsWith(TYPED_KEY))) return;
  const { deliverTyped, fillCaseAt } = await import("~/offline/typed-delivery");
  await deliverTyped(fillCaseAt(window.location.pathname));
}

async function renewSignIn() {
  const res = await fetch("/authentication/silent-token-renew-callback", { credentials: "same-origin" });
  // The sign-in lapsed while offline: renewed silently while the provider still knows the person,
  // otherwise through the provider's sign-in, coming back here. Local data lives in IndexedDB and is kept.
  if (res.status === 401) {
    const { silentSignIn } = await import("~/offline/silent-sign-in");
    if (await silentSignIn()) return true;
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/authentication/login?returnTo=${encodeURIComponent(here)}`);
    return false;
  }
  return true;
}

/**
 * The app's offline machinery for a signed-in person: the service worker, the health poll while offline,
 * the automatic sync when the network returns, and the unsynced-fills button with its modal.
 */
export function OfflineLayer() {
  const { t } = useTranslation();
  const toast = useToast();
  const online = useOnline();
  const [count, setCount] = useState(0);
  const [locked, setLocked] = useState<LockedWork | null>(null);
  const [open, setOpen] = useState(false);
  const syncing = useRef(false);

  const refreshCount = useCallback(() => {
    void countEntries().then(setCount);
    void import("~/offline/locked-work").then((m) => m.lockedWork()).then(setLocked, () => setLocked(null));
  }, []);

  const sync = useCallback(async () => {
    if (syncing.current) return;
    syncing.current = true;
    try {
      // A hand-over the PIN ended offline ends on the server first: until then staff's calls are refused, and
      // a server out of reach is tried again with the network, before the sync. While the patient holds the
      // device (or the server keeps its mode), the session answers the case's sync but no renewal (it would
      // look lapsed and send the page to a sign-in): the sync goes without it (decision 058).
      // Its code loads with the sync, not with every page.
      const holder = await requireHolder().catch(() => null);
      const handover = holder
        ? await import("~/offline/handover-device")
            .then((m) => m.endReturnedHandover(holder))
            .catch(() => "held" as const)
        : "none";
      if (handover === "unreachable") {
        reportNetworkError();
        return;
      }
      const handedOver = handover !== "none";
      if (!handedOver && !(await renewSignIn().catch(() => false))) return;
      await deliverTypedValues().catch(() => undefined);
      const { syncAll } = await import("~/offline/sync-client");
      const summary = await syncAll();
      if (summary.synced > 0) toast("success", t("offline.syncedCount", { count: summary.synced }));
      if (summary.unauthorized) toast("error", t("offline.signInAgain"));
      // Cut off mid-way: offline again, and the health poll brings the next try.
      if (summary.offline) reportNetworkError();
      setCount(summary.left);
      // What is left after a sync that sent something needs the user: the modal shows it.
      if (summary.attempted > 0 && summary.left > 0 && !summary.offline) setOpen(true);
    } finally {
      syncing.current = false;
    }
  }, [toast, t]);

  useEffect(() => {
    // A page the service worker answered from its copies looks online until a request fails: ask once.
    // The body is read so that the request ends (an unread body keeps it open, and the page never idles).
    fetch(apiUrl(healthApi.health), { cache: "no-store" })
      .then((res) => res.text())
      .catch(() => reportNetworkError());
    // The service worker does not compete with the page starting: its code, too, loads after the page.
    const cancelDelivery = afterLoad(() => void deliverTypedValues().catch(() => undefined));
    const cancel = afterLoad(
      () =>
        void import("~/offline/sw.client")
          .then(async (sw) => {
            const ok = await sw.registerServiceWorker();
            const ids = await downloadedIds();
            // A new build, or a person whose kept pages went while another person held the device; asked of
            // this version's worker only, once it has taken over from a worker of earlier versions.
            if (!ok || ids.length === 0 || !(await sw.ourWorkerActive())) return;
            if (navigator.onLine && (await sw.needsWarm())) await sw.warmOffline(ids);
          })
          .catch(() => undefined),
    );
    refreshCount();
    window.addEventListener("offline:entries", refreshCount);
    window.addEventListener(HOLDER_EVENT, refreshCount);
    return () => {
      cancel();
      cancelDelivery();
      window.removeEventListener("offline:entries", refreshCount);
      window.removeEventListener(HOLDER_EVENT, refreshCount);
    };
  }, [refreshCount]);

  useEffect(() => {
    if (online) {
      void deliverTypedValues()
        .catch(() => undefined)
        .then(() => countEntries())
        .then((n) => (n > 0 ? sync() : undefined));
      return;
    }
    const timer = setInterval(async () => {
      try {
        const res = await fetch(apiUrl(healthApi.health), { cache: "no-store" });
        await res.text();
        if (res.ok) reportOnline();
      } catch {
        // Still offline.
      }
    }, HEALTH_POLL_MS);
    return () => clearInterval(timer);
  }, [online, sync]);

  return (
    <>
      {count > 0 || locked?.count ? (
        <div className="sync-bar">
          {count > 0 ? (
            <button type="button" className="btn btn--small" onClick={() => setOpen(true)} data-testid="open-sync">
              {t("offline.unsynced", { count })}
            </button>
          ) : null}
          {locked?.count ? (
            <p className="sync-bar__locked" role="status" data-testid="locked-work">
              {t("offline.lockedWork", { count: locked.count })}{" "}
              {locked.old
                ? t("offline.lockedWorkOld", { days: LOCKED_NOTICE_DAYS })
                : t("offline.lockedWorkNote", { days: LOCKED_NOTICE_DAYS })}
            </p>
          ) : null}
        </div>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <SyncModal
            onClose={() => {
              setOpen(false);
              refreshCount();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
