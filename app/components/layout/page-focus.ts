import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Where focus goes when the app moves to another page without loading a document (WCAG 2.4.3): to the new
 * page's heading, so that a screen reader says where the person is, instead of to the page's body where
 * nothing is said. The first page of a visit is left alone: the browser announces a loaded document itself.
 */
let firstPage = true;

/** True once the app has moved on from the page the visit began on. */
export function movedOn(): boolean {
  return !firstPage;
}

/** Focuses an element that is not focusable by itself (a heading), without scrolling it into view. */
export function focusHeading(element: Element | null | undefined, scroll = false) {
  if (!(element instanceof HTMLElement)) return;
  if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
  element.focus({ preventScroll: !scroll });
}

/** In the root: a new path's page gets focus on its first heading. */
export function usePageFocus() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (firstPage) {
      firstPage = false;
      return;
    }
    focusHeading(document.querySelector("main h1"));
  }, [pathname]);
}

/**
 * Starts the Tab order from the page's top again, leaving nothing focused. A page loaded with a hash that names
 * an element (the editor's #questionnaire, whose panel has that id until the page runs) begins the browser's Tab
 * order there, so that the first Tabs ran through the panel before they reached the header and the page's title.
 * Focus the person has already moved is left alone.
 */
export function restartTabOrder() {
  const body = document.body;
  if (document.activeElement && document.activeElement !== body) return;
  const tabIndex = body.getAttribute("tabindex");
  body.setAttribute("tabindex", "-1");
  body.focus({ preventScroll: true });
  body.blur();
  if (tabIndex === null) body.removeAttribute("tabindex");
  else body.setAttribute("tabindex", tabIndex);
}
