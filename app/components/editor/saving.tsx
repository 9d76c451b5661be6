import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/texts";

/**
 * The editor's one saving model (decision 035): a typed field is saved while it is typed (a moment after the
 * last change) and at once when it is left; each shows whether it is saved; the page asks before it is left
 * while any field is not saved yet.
 */

export type SaveState = "idle" | "unsaved" | "saving" | "saved" | "failed";

/** How long after the last keystroke a typed field is saved. */
export const AUTOSAVE_DELAY_MS = 800;

interface Pending {
  mark(key: string, pending: boolean): void;
  any: boolean;
}

const PendingFields = createContext<Pending | null>(null);

/** Collects which of the editor's fields are not saved yet (for the leave guard). */
export function SavingProvider({ children }: { children: ReactNode }) {
  const [keys, setKeys] = useState<ReadonlySet<string>>(() => new Set());
  const mark = useCallback((key: string, pending: boolean) => {
    setKeys((current) => {
      if (current.has(key) === pending) return current;
      const next = new Set(current);
      if (pending) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ mark, any: keys.size > 0 }), [mark, keys]);
  return <PendingFields.Provider value={value}>{children}</PendingFields.Provider>;
}

/** Tells the leave guard whether this field holds something not saved yet. */
export function useUnsavedMark(key: string, pending: boolean) {
  // The mark alone, which stays the same: the context's value changes with every mark, and effects that
  // followed it would unmark and mark again without end while a field is unsaved.
  const mark = useContext(PendingFields)?.mark;
  useEffect(() => {
    mark?.(key, pending);
  }, [mark, key, pending]);
  useEffect(() => () => mark?.(key, false), [mark, key]);
}

/** True while any field of the editor is not saved yet. */
export function useAnyUnsaved(): boolean {
  return useContext(PendingFields)?.any ?? false;
}

/**
 * The save step of every field saved on its own (the start tab's fields, the rich texts): `next` is sent only
 * when it differs from the value the server holds (`saved`), and `saved` stays true to the server: it is `next`
 * from the moment the request leaves (a second save of the same value sends nothing) and the value before it
 * again when the server refuses, unless a newer save has been sent meanwhile. Answers whether the server holds
 * `next`; on a refusal the field decides what it shows (the saved value again, or the typed one marked unsaved).
 */
export async function saveChanged<T>(
  saved: { current: T },
  next: T,
  send: (next: T) => Promise<boolean>,
  same: (a: T, b: T) => boolean = Object.is,
): Promise<boolean> {
  if (same(next, saved.current)) return true;
  const previous = saved.current;
  saved.current = next;
  sending.set(saved, (sending.get(saved) ?? 0) + 1);
  const ok = await send(next)
    .catch(() => false)
    .finally(() => sending.set(saved, (sending.get(saved) ?? 1) - 1));
  if (!ok && saved.current === next) saved.current = previous;
  return ok;
}

/** How many saves of each field (by its `saved`) are on their way. */
const sending = new WeakMap<object, number>();

/**
 * Whether a save of the field whose server value `saved` holds is on its way. The page's data read before
 * that save's answer says nothing of it: taken as the server's value, it would put the older text back in
 * the field, and leave it there if the save is refused.
 */
export function saveOnItsWay(saved: object): boolean {
  return (sending.get(saved) ?? 0) > 0;
}

/**
 * A field saved while it is typed. `change(value)` marks it unsaved and saves it `delayMs` after the last change
 * (null: only when flushed, for a field whose edit can still be dropped, like the title); `flush()` saves what
 * is pending at once (when the field is left, or the page is hidden); `cancel()` drops it. Saves run one after
 * the other, so an older value never lands after a newer one; the state shown is that of the newest value. A
 * failed save keeps the field unsaved (the leave guard asks) until the next change saves it. `save` answers
 * whether the server took the value.
 */
export function useAutosave<T>(
  key: string,
  save: (value: T) => Promise<boolean>,
  delayMs: number | null = AUTOSAVE_DELAY_MS,
) {
  const [state, setState] = useState<SaveState>("idle");
  const waiting = useRef<{ value: T } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const saveRef = useRef(save);
  saveRef.current = save;

  useUnsavedMark(key, state === "unsaved" || state === "saving" || state === "failed");

  const flush = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    queue.current = queue.current.then(async () => {
      const next = waiting.current;
      if (!next) return;
      waiting.current = null;
      setState("saving");
      const ok = await saveRef.current(next.value).catch(() => false);
      // A newer value typed meanwhile decides the state shown.
      if (!waiting.current) setState(ok ? "saved" : "failed");
    });
    return queue.current;
  }, []);

  const change = useCallback(
    (value: T) => {
      waiting.current = { value };
      setState("unsaved");
      clearTimeout(timer.current);
      if (delayMs !== null) timer.current = setTimeout(() => void flush(), delayMs);
    },
    [flush, delayMs],
  );

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    waiting.current = null;
    setState("idle");
  }, []);

  // A page that is hidden (another tab, a closed laptop, a reload on its way) saves what is pending now.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "hidden") void flush();
    };
    const onHide = () => void flush();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onHide);
      void flush();
    };
  }, [flush]);

  return { state, change, flush, cancel };
}

/** What a field's save state says, beside its label; read out politely by screen readers. */
export function SaveStatus({ state, testId }: { state: SaveState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`save-status save-status--${state}`} role="status" data-testid={testId}>
      {state === "idle" ? "" : t(`editor.saveState.${state}`)}
    </span>
  );
}
