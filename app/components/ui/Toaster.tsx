import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation, type Texts } from "~/texts";

/** Toasts stay this long (section 9). */
export const TOAST_MS = 5000;

export type ToastKind = "success" | "error" | "info";
/** The language of a toast's words and their direction, where they are not the page's. */
export interface ToastLanguage {
  lang: string;
  dir: "ltr" | "rtl";
}
interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  language: ToastLanguage | null;
}

type Show = (kind: ToastKind, message: string, language: ToastLanguage | null) => void;
const ToastContext = createContext<Show>(() => undefined);

/**
 * The language of the words said within a part of the page (a fill page's region in the case's language,
 * docs/decisions/055-fill-languages.md): a toast raised there says it, and screen readers read it in that
 * language and direction although the toasts are drawn outside the region.
 */
export const ToastLanguageContext = createContext<ToastLanguage | null>(null);

export function useToast() {
  const show = useContext(ToastContext);
  const language = useContext(ToastLanguageContext);
  return useCallback((kind: ToastKind, message: string) => show(kind, message, language), [show, language]);
}

export function ToastProvider({
  children,
  initial,
  words,
}: {
  children: ReactNode;
  initial?: { kind: ToastKind; message: string } | null;
  /** The region's own words where they are not the page's (a patient's link pages: the case's language). */
  words?: Texts | null;
}) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const show = useCallback<Show>((kind, message, language) => {
    const id = nextId.current++;
    setToasts((list) => [...list.filter((t) => t.message !== message), { id, kind, message, language }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_MS);
  }, []);
  useEffect(() => {
    if (initial) show(initial.kind, initial.message, null);
  }, [initial, show]);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Toaster
        toasts={toasts}
        words={words ?? null}
        onDismiss={(id) => setToasts((list) => list.filter((t) => t.id !== id))}
      />
    </ToastContext.Provider>
  );
}

/**
 * While toasts show, what has focus is kept clear of them (WCAG 2.4.11): the element focused then, or focused
 * while they show (a modal closing gives focus back to its button, "+ Kategorie hinzufügen" say, often at the
 * bottom of the screen where the toasts are), goes to the middle of the screen when they cover it, or when the
 * page, drawn anew, pushed it from sight under or past them (a category added above the button). The page's
 * scroll padding leaves their room free for whatever the keyboard reaches next.
 */
function useFocusClearOf(list: React.RefObject<HTMLElement>, showing: boolean) {
  useEffect(() => {
    const root = document.documentElement;
    const box = list.current;
    if (!showing || !box) return;
    /** The focused element while it was in sight and clear of the toasts. */
    let seen: Element | null = null;
    const check = () => {
      const target = document.activeElement;
      // A modal's controls are drawn above the toasts.
      if (!(target instanceof HTMLElement) || target === document.body || target.closest(".toaster, dialog")) return;
      const toasts = box.getBoundingClientRect();
      const at = target.getBoundingClientRect();
      if (at.top >= 0 && at.bottom <= toasts.top) {
        seen = target;
        return;
      }
      const inSight = at.bottom > 0 && at.top < window.innerHeight;
      const underOrPast = at.bottom > toasts.top && at.right > toasts.left && at.left < toasts.right;
      if (underOrPast && (inSight || seen === target)) {
        target.scrollIntoView({ block: "center", behavior: "instant" });
        seen = target;
      }
    };
    const room = () => {
      root.style.setProperty("scroll-padding-bottom", `${window.innerHeight - box.getBoundingClientRect().top + 12}px`);
      check();
    };
    room();
    // After the browser's own scrolling to what it focused.
    const onFocus = () => requestAnimationFrame(check);
    const resized = new ResizeObserver(room);
    resized.observe(box);
    resized.observe(document.body);
    document.addEventListener("focusin", onFocus);
    return () => {
      resized.disconnect();
      document.removeEventListener("focusin", onFocus);
      root.style.removeProperty("scroll-padding-bottom");
    };
  }, [list, showing]);
}

function Toaster({
  toasts,
  words,
  onDismiss,
}: {
  toasts: Toast[];
  words: Texts | null;
  onDismiss: (id: number) => void;
}) {
  const page = useTranslation();
  const t = words?.t ?? page.t;
  const list = useRef<HTMLDivElement>(null);
  useFocusClearOf(list, toasts.length > 0);
  return (
    <section className="toaster" aria-label={t("toast.region")} lang={words?.language}>
      <div ref={list} role="status" aria-live="polite" className="toaster__list">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.kind}`} data-testid="toast">
            <span lang={toast.language?.lang} dir={toast.language?.dir}>
              {toast.message}
            </span>
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
