/** Scrolled down this far from where the scroll turned, the header hides. */
export const HIDE_AFTER_DOWN_PX = 20;
/** Scrolled up this far from where the scroll turned, the header shows again. */
export const SHOW_AFTER_UP_PX = 50;

export interface HeaderScrollState {
  visible: boolean;
  lastY: number;
  /** Where the current scroll direction began. */
  turnY: number;
}

export const initialHeaderScroll: HeaderScrollState = { visible: true, lastY: 0, turnY: 0 };

/** The header's visibility after the page scrolled to y (section 2: 20 px down hides, 50 px up or the top shows). */
export function nextHeaderScroll(state: HeaderScrollState, y: number): HeaderScrollState {
  if (y <= 0) return { visible: true, lastY: 0, turnY: 0 };
  const goingDown = y > state.lastY;
  const wasGoingDown = state.lastY >= state.turnY;
  const turnY = goingDown === wasGoingDown ? state.turnY : state.lastY;
  let visible = state.visible;
  if (goingDown && y - turnY > HIDE_AFTER_DOWN_PX) visible = false;
  if (!goingDown && turnY - y > SHOW_AFTER_UP_PX) visible = true;
  return { visible, lastY: y, turnY };
}
