import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Choice, Field } from "./Field";

const html = (element: React.ReactElement) => renderToStaticMarkup(element);

describe("Field", () => {
  it("binds the label to the control and describes it by its hint", () => {
    const out = html(
      <Field id="unit" label="Einheit" hint="z. B. kg">
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(out).toContain('<label class="field__label" for="unit">Einheit</label>');
    expect(out).toContain('<input id="unit" aria-describedby="unit-hint"/>');
    expect(out).toContain('<span id="unit-hint" class="field__hint">z. B. kg</span>');
    expect(out).not.toContain("aria-invalid");
  });

  it("marks the control invalid and says why, read out as it appears, before the hint", () => {
    const out = html(
      <Field id="t" label="Titel" hint="Pflicht" error="Bitte einen Titel eingeben.">
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(out).toContain('<input id="t" aria-invalid="true" aria-describedby="t-error t-hint"/>');
    expect(out).toContain('<span id="t-error" class="field__error" role="alert">Bitte einen Titel eingeben.</span>');
  });

  it("takes a form library's ids and a control wired by it as it is", () => {
    const out = html(
      <Field id="f-title" errorId="f-title-error-1" label="Titel" error="Zu lang">
        <input id="f-title" aria-invalid="true" aria-describedby="f-title-error-1" />
      </Field>,
    );
    expect(out).toContain('<span id="f-title-error-1" class="field__error" role="alert">Zu lang</span>');
  });

  it("keeps a live status under the control, its tone deciding whether the control is invalid", () => {
    const status = (tone: "error" | "note" | "silent") =>
      html(
        <Field id="p" label="Patienten-ID" hint="Pflichtfeld" status={{ text: "Vergeben", tone, testId: "s" }}>
          {(control) => <input {...control} />}
        </Field>,
      );
    expect(status("error")).toContain('<input id="p" aria-invalid="true" aria-describedby="p-hint p-status"/>');
    expect(status("error")).toContain(
      '<p id="p-status" class="field__error" aria-live="polite" data-testid="s">Vergeben</p>',
    );
    expect(status("note")).toContain('<input id="p" aria-describedby="p-hint p-status"/>');
    expect(status("note")).toContain('class="field__hint" aria-live="polite"');
    expect(status("silent")).toContain('class="visually-hidden" aria-live="polite"');
  });

  it("puts what belongs beside the label on its line", () => {
    const out = html(
      <Field id="d" label="Beschreibung" aside={<span role="status">Gespeichert</span>} className="wide">
        {(control) => <textarea {...control} />}
      </Field>,
    );
    expect(out).toMatch(
      /^<div class="field wide"><div class="field__head"><label[^>]*>Beschreibung<\/label><span role="status">/,
    );
  });

  it("inline: the label is read out, not drawn, and nothing wraps the control", () => {
    const out = html(
      <Field id="q" label="Suche" layout="inline" error="Zu lang">
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(out).toBe(
      '<label class="visually-hidden" for="q">Suche</label><input id="q" aria-invalid="true" aria-describedby="q-error"/>' +
        '<span id="q-error" class="field__error" role="alert">Zu lang</span>',
    );
  });
});

describe("Choice", () => {
  it("puts the label after its checkbox or radio, bound to it", () => {
    expect(
      html(
        <Choice id="c" label="Team A">
          <input id="c" type="checkbox" />
        </Choice>,
      ),
    ).toBe('<div class="start-choice"><input id="c" type="checkbox"/><label for="c">Team A</label></div>');
    expect(
      html(
        <Choice id="r" label="Genehmigt" as="li" className="start-choice start-choice--disabled">
          <input id="r" type="radio" />
        </Choice>,
      ),
    ).toBe(
      '<li class="start-choice start-choice--disabled"><input id="r" type="radio"/><label for="r">Genehmigt</label></li>',
    );
  });

  it("a switch: its hint under it describes the control", () => {
    const out = html(
      <Choice
        id="s"
        label="Aktiv"
        hint="Fragt vor dem Start"
        className="prelim-switch"
        labelClassName="prelim-switch__label"
        hintClassName="prelim-switch__hint"
      >
        {(control) => <input {...control} type="checkbox" />}
      </Choice>,
    );
    expect(out).toBe(
      '<div class="prelim-switch"><input id="s" aria-describedby="s-hint" type="checkbox"/>' +
        '<label for="s" class="prelim-switch__label">Aktiv</label><p id="s-hint" class="prelim-switch__hint">Fragt vor dem Start</p></div>',
    );
  });
});
