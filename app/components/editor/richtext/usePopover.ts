import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";

/** Room kept between a popover and the edge of the screen. */
const EDGE_PX = 8;

/**
 * How far (px, along x) a panel drawn at `rect` must move to lie within a screen `width` wide: left when
 * it passes the right edge, right when it passes the left one (and the left edge wins when it is wider).
 */
export function shiftIntoView(rect: { left: number; right: number }, width: number): number {
  let shift = 0;
  if (rect.right > width - EDGE_PX) shift = width - EDGE_PX - rect.right;
  if (rect.left + shift < EDGE_PX) shift = EDGE_PX - rect.left;
  return shift;
}

/**
 * A toolbar popover: a pointer press outside closes it, Escape closes it and gives focus back to the
 * button that opened it; its panel (`panel`) is moved sideways to stay on the screen.
 */
export function usePopover() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement | null>(null);

  useLayoutEffect(() => {
    const element = panel.current;
    if (!open || !element) return;
    element.style.transform = "";
    const shift = shiftIntoView(element.getBoundingClientRect(), document.documentElement.clientWidth);
    if (shift !== 0) element.style.transform = `translateX(${Math.round(shift)}px)`;
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [open]);

  const close = useCallback((refocus = true) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  }, []);

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      close();
    },
    [close],
  );

  return { open, setOpen, root, trigger, panel, close, onKeyDown };
}
