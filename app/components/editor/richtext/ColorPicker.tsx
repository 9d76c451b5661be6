import { useEffect, useId, useRef, type KeyboardEvent } from "react";
import { useTranslation } from "~/texts";
import { Icon } from "./icons";
import { colourWords, PALETTE, PALETTE_COLUMNS, paletteMove, sameColour } from "./palette";
import { usePopover } from "./usePopover";

interface ColorPickerProps {
  kind: "textColor" | "backgroundColor";
  /** The colour of the text at the cursor, if any. */
  current: string | null;
  onPick: (colour: string) => void;
  onClear: () => void;
}

/**
 * A toolbar button that opens the palette of section 9 (60 colours, 10 columns) as a grid of buttons,
 * each named in words ("Rot, kräftig"), its hex value as its tooltip. Arrow keys, Home and End move through the
 * grid; Escape closes it.
 */
export function ColorPicker({ kind, current, onPick, onClear }: ColorPickerProps) {
  const { t } = useTranslation();
  const popover = usePopover();
  const panelId = useId();
  const swatches = useRef<Array<HTMLButtonElement | null>>([]);
  const label = t(`richText.${kind}`);
  const currentIndex = PALETTE.findIndex((c) => sameColour(c, current));
  const nameOf = (index: number) => {
    const { hue, shade } = colourWords(index);
    const hueName = t(`richText.colours.${hue}`);
    return shade ? t("richText.colourName", { hue: hueName, shade: t(`richText.colours.${shade}`) }) : hueName;
  };

  useEffect(() => {
    if (popover.open) swatches.current[Math.max(currentIndex, 0)]?.focus();
    // Only on opening: focus starts at the colour in use.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [popover.open]);

  const onGridKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    const next = paletteMove(index, event.key, PALETTE.length, PALETTE_COLUMNS);
    event.preventDefault();
    event.stopPropagation();
    swatches.current[next]?.focus();
  };

  const choose = (pick: () => void) => {
    popover.close(false);
    pick();
  };

  return (
    <div className="rt-popover" ref={popover.root} onKeyDown={popover.onKeyDown}>
      <button
        ref={popover.trigger}
        type="button"
        className="rt-btn rt-btn--colour"
        title={label}
        aria-haspopup="true"
        aria-expanded={popover.open}
        aria-controls={popover.open ? panelId : undefined}
        data-toolbar-item
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => popover.setOpen(!popover.open)}
      >
        <Icon name={kind} />
        <span className="rt-btn__swatch" style={{ background: current ?? "transparent" }} aria-hidden="true" />
      </button>
      {popover.open ? (
        <div
          id={panelId}
          className="rt-popover__panel rt-popover__panel--end"
          ref={popover.panel as React.RefObject<HTMLDivElement>}
          role="group"
          aria-label={`${label}: ${t("richText.palette")}`}
        >
          <button type="button" className="btn btn--small rt-palette__clear" onClick={() => choose(onClear)}>
            {t("richText.removeColour")}
          </button>
          <div className="rt-palette" style={{ gridTemplateColumns: `repeat(${PALETTE_COLUMNS}, 1fr)` }}>
            {PALETTE.map((colour, index) => (
              <button
                key={colour}
                ref={(el) => {
                  swatches.current[index] = el;
                }}
                type="button"
                className="rt-palette__swatch"
                style={{ background: colour }}
                aria-label={nameOf(index)}
                title={colour}
                aria-pressed={index === currentIndex}
                tabIndex={index === Math.max(currentIndex, 0) ? 0 : -1}
                onKeyDown={(event) => onGridKey(event, index)}
                onClick={() => choose(() => onPick(colour))}
              />
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
