import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** Toasts stay this long (section 9). */
export const TOAST_MS = 5000;

export type ToastKind = "success" | "error" | "info";
interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

const ToastContext = createContext<(kind: ToastKind, message: string) => void>(() => undefined);

export function useToast() {
  return useContext(ToastContext);
}

export function ToastProvider({
  children,
  initial,
}: {
  children: ReactNode;
  initial?: { kind: ToastKind; message: string } | null;
}) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const show = useCallback((kind: ToastKind, message: string) => {
    const id = nextId.current++;
    setToasts((list) => [...list.filter((t) => t.message !== message), { id, kind, message }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_MS);
  }, []);
  useEffect(() => {
    if (initial) show(initial.kind, initial.message);
  }, [initial, show]);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Toaster toasts={toasts} onDismiss={(id) => setToasts((list) => list.filter((t) => t.id !== id))} />
    </ToastContext.Provider>
  );
}

function Toaster({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <section className="toaster" aria-label={t("toast.region")}>
      <div role="status" aria-live="polite" className="toaster__list">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.kind}`} data-testid="toast">
            <span>{toast.message}</span>
            <button
              type="button"
              className="toast__close"
              onClick={() => onDismiss(toast.id)}
              aria-label={t("toast.dismiss")}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
