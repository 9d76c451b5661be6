import { useEffect, useRef } from "react";
import { Field } from "~/components/ui/Field";
import { editingLimits } from "~/domain/editing";
import { useTranslation } from "~/texts";
import { addMarker, formatFraction, type ImageBox, type MarkerDraft, type MarkersUpdate } from "./markers";

/** The markers of an image question beside the image: a required title each, a remove button, and add. */
export function MarkerList({
  id,
  markers,
  errors,
  box,
  onMarkers,
  onAdded,
}: {
  id: string;
  markers: MarkerDraft[];
  errors: { markers: boolean; blankMarkers: number[] } | null;
  /** The rendered image, so a new marker starts inside it. */
  box: () => ImageBox;
  onMarkers: MarkersUpdate;
  /** A marker was added with the button: it is the one a click on the image places next. */
  onAdded?: (key: number) => void;
}) {
  const { t } = useTranslation();
  const focusNext = useRef<string | null>(null);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target) document.getElementById(target)?.focus();
  }, [markers.length]);

  const add = () => {
    const next = addMarker(markers, box());
    focusNext.current = `${id}-marker-${next.key}`;
    onMarkers(() => next.list);
    onAdded?.(next.key);
  };
  const remove = (index: number) => {
    const gone = markers[index].key;
    const rest = markers.filter((_, i) => i !== index);
    const neighbour = rest[Math.min(index, rest.length - 1)];
    focusNext.current = neighbour ? `${id}-marker-${neighbour.key}` : `${id}-add-marker`;
    onMarkers((list) => list.filter((m) => m.key !== gone));
  };

  return (
    <fieldset className="choice-list qmodal__markers">
      <legend className="field__label">{t("questionModal.markers")}</legend>
      {errors?.markers ? (
        <p id={`${id}-markers-error`} className="field__error" data-testid="markers-error">
          {t("questionModal.markersRequired")}
        </p>
      ) : null}
      <ol className="qmodal__marker-list">
        {markers.map((m, i) => {
          const blank = !!errors?.blankMarkers.includes(m.key);
          const field = `${id}-marker-${m.key}`;
          return (
            <li key={m.key} className="qmodal__marker" data-testid="marker-row">
              <Field
                id={field}
                label={t("questionModal.markerTitle", { n: i + 1 })}
                hint={t("questionModal.position", { x: formatFraction(m.x), y: formatFraction(m.y) })}
                hintId={`${field}-pos`}
                error={blank ? t("questionModal.markerRequired") : undefined}
              >
                {(control) => (
                  <div className="qmodal__marker-row">
                    <input
                      {...control}
                      name={`markers[${i}].text`}
                      className="input"
                      value={m.text}
                      maxLength={editingLimits.answerText}
                      aria-required="true"
                      onChange={(e) => {
                        const text = e.target.value;
                        onMarkers((list) => list.map((x) => (x.key === m.key ? { ...x, text } : x)));
                      }}
                    />
                    <button
                      type="button"
                      className="btn btn--small"
                      title={t("questionModal.removeMarker", { n: i + 1 })}
                      onClick={() => remove(i)}
                    >
                      <span aria-hidden="true">×</span>
                    </button>
                  </div>
                )}
              </Field>
            </li>
          );
        })}
      </ol>
      <button
        id={`${id}-add-marker`}
        type="button"
        className="btn"
        aria-describedby={errors?.markers ? `${id}-markers-error` : undefined}
        onClick={add}
      >
        + {t("questionModal.addMarker")}
      </button>
    </fieldset>
  );
}
