import { Field } from "~/components/ui/Field";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { Icon } from "./icons";
import { normalizeLink } from "./link";
import { usePopover } from "./usePopover";

interface LinkPopoverProps {
  /** The address of the link at the cursor ("" when there is none). */
  href: string;
  onApply: (url: string) => void;
}

/**
 * The link button: a small form asks for the address (http, https or mailto only) and refuses
 * anything else with a message; Escape or Cancel closes it.
 */
export function LinkPopover({ href, onApply }: LinkPopoverProps) {
  const { t } = useTranslation();
  const popover = usePopover();
  const [value, setValue] = useState("");
  const [invalid, setInvalid] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { panel: useId(), input: useId(), error: useId() };

  useEffect(() => {
    if (!popover.open) return;
    setValue(href);
    setInvalid(false);
    input.current?.focus();
    // Only on opening: the form starts from the link at the cursor.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [popover.open]);

  const label = t("richText.link");
  return (
    <div className="rt-popover" ref={popover.root} onKeyDown={popover.onKeyDown}>
      <button
        ref={popover.trigger}
        type="button"
        className="rt-btn"
        title={label}
        aria-haspopup="true"
        aria-expanded={popover.open}
        aria-controls={popover.open ? ids.panel : undefined}
        data-toolbar-item
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => popover.setOpen(!popover.open)}
      >
        <Icon name="link" />
      </button>
      {popover.open ? (
        <form
          id={ids.panel}
          className="rt-popover__panel rt-link"
          ref={popover.panel as React.RefObject<HTMLFormElement>}
          role="group"
          aria-label={label}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const url = normalizeLink(value);
            if (!url) {
              setInvalid(true);
              input.current?.focus();
              return;
            }
            popover.close(false);
            onApply(url);
          }}
        >
          <Field
            id={ids.input}
            errorId={ids.error}
            label={t("richText.linkUrl")}
            error={invalid ? t("richText.linkInvalid") : null}
          >
            {(control) => (
              <input
                ref={input}
                {...control}
                className="input"
                type="text"
                inputMode="url"
                autoComplete="url"
                spellCheck={false}
                value={value}
                onChange={(event) => {
                  setValue(event.target.value);
                  setInvalid(false);
                }}
              />
            )}
          </Field>
          <div className="rt-link__actions">
            <button type="button" className="btn btn--small" onClick={() => popover.close()}>
              {t("richText.linkCancel")}
            </button>
            <button type="submit" className="btn btn--small btn--primary">
              {t("richText.linkApply")}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
