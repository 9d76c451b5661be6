import { translate } from "~/server/locales.server";
import type { ImportExtension } from "./import-schema.server";

/**
 * What a Questionnaire's import cannot hold (docs/decisions/040-fhir.md), noted as losses of a kind with the
 * item each touches, and told as one line a kind: "9 questions: answer prefixes (0, 1, 2 …) not kept". The
 * losses that change what is asked come first (refused repeats, items not held, conditions, item types), the
 * cosmetic ones after. A kind the product comes to hold is simply no longer noted: the lines follow.
 */

/** The kinds in the order of their lines; those before `extension` change what is asked. */
const KINDS = [
  "repeatingGroup",
  "repeatingItem",
  "calculated",
  "readOnly",
  "hidden",
  "condition",
  "itemType",
  "attachment",
  "answersElsewhere",
  "openChoice",
  "nested",
  "required",
  "score",
  "initial",
  "image",
  "extension",
  "property",
  "sourceLanguage",
  "translations",
] as const;
export type LossKind = (typeof KINDS)[number];

const COSMETIC = KINDS.indexOf("extension");
/** Kinds told once per item (each refused repeat has its own line), and kinds told without item names. */
const EACH = new Set<LossKind>(["repeatingGroup", "repeatingItem"]);
const UNNAMED = new Set<LossKind>(["required", "score", "extension", "property", "sourceLanguage", "translations"]);
/** The most item names and values a line shows; more are left to "…". */
const NAMES_SHOWN = 5;
const VALUES_SHOWN = 3;

/**
 * Where a loss is: an item (a question or a group) by its linkId and name, the calculated total the survey
 * computes, or the questionnaire itself.
 */
export interface LossPlace {
  linkId: string;
  name: string;
  unit: "question" | "group" | "total" | "questionnaire";
}

export interface Loss {
  kind: LossKind;
  at: LossPlace;
  /** Told in brackets after the item's name: a condition, the question it was nested under. */
  about?: string;
  /** Within a kind, what the line is about: an item type, or a name's key under fhir.name. */
  variant?: string;
  /** The name of an extension or a property that has no key of its own (the last part of its URL). */
  raw?: string;
  /** Values the line shows: answer prefixes, scores, codes. */
  values?: string[];
  /** Counted instead of the items: the questions a refused repeat takes with it. */
  count?: number;
}

/** HL7's and SDC's extensions by the last part of their URL: the key of the name people read (fhir.name.*). */
const EXTENSION_NAMES: Record<string, string> = {
  "questionnaire-optionPrefix": "optionPrefix",
  "sdc-questionnaire-observationLinkPeriod": "observationLinkPeriod",
  "sdc-questionnaire-observationExtract": "observationExtract",
  "questionnaire-displayCategory": "displayCategory",
  "questionnaire-unit": "unit",
  "rendering-xhtml": "xhtml",
  "rendering-style": "style",
  "rendering-markdown": "markdown",
  "terminology-server": "terminologyServer",
  "questionnaire-externallydefined": "externallyDefined",
  "sdc-questionnaire-launchContext": "launchContext",
  "questionnaire-answerRepeats": "answerRepeats",
  "questionnaire-maxOccurs": "maxOccurs",
  minValue: "minValue",
  maxValue: "maxValue",
  maxDecimalPlaces: "maxDecimalPlaces",
  entryFormat: "entryFormat",
  "questionnaire-sliderStepValue": "sliderStepValue",
  "questionnaire-supportLink": "supportLink",
  "questionnaire-choiceOrientation": "choiceOrientation",
  "sdc-questionnaire-shortText": "shortText",
  "sdc-questionnaire-answerExpression": "answerExpression",
  "questionnaire-optionExclusive": "optionExclusive",
  "questionnaire-signatureRequired": "signatureRequired",
  "questionnaire-usageMode": "usageMode",
  "questionnaire-constraint": "constraint",
  "sdc-questionnaire-itemMedia": "itemMedia",
  "sdc-questionnaire-collapsible": "collapsible",
};

/** The item control codes (questionnaire-itemControl) with a name of their own (fhir.name.control.*). */
const CONTROLS = new Set([
  "drop-down",
  "radio-button",
  "check-box",
  "autocomplete",
  "lookup",
  "help",
  "slider",
  "spinner",
  "text-box",
  "list",
  "flyover",
  "table",
  "gtable",
  "htable",
  "grid",
  "page",
]);

/** An item's properties with a name people read (fhir.name.*); others are named as they are. */
const PROPERTY_NAMES: Record<string, string> = {
  code: "code",
  prefix: "prefix",
  maxLength: "maxLength",
  definition: "definition",
};

/** The last part of an extension's URL: what it is known by, without its address. */
export const lastPart = (url: string) =>
  url
    .replace(/[|#].*$/, "")
    .replace(/\/+$/, "")
    .replace(/^.*\//, "");

export class Losses {
  private readonly list: Loss[] = [];

  note(loss: Loss): void {
    this.list.push(loss);
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * An extension the import does not read. Variables serve expressions only, and those are noted where they
   * are (a calculated item, a condition, a preset answer), so a variable is no loss of its own; nor is an
   * extension that says "not hidden" or "no minimum".
   */
  extension(at: LossPlace, e: ImportExtension): void {
    const last = lastPart(e.url);
    if (last === "variable") return;
    // A hidden question is left out before its extensions are read; a group shown that way is not hidden here.
    if (last === "questionnaire-hidden") {
      if (e.valueBoolean === true) this.note({ kind: "extension", at, variant: "hidden" });
      return;
    }
    if (last === "questionnaire-minOccurs") {
      if (Number(e.valueInteger) >= 1) this.note({ kind: "required", at });
      return;
    }
    if (last === "sdc-questionnaire-initialExpression" || last === "questionnaire-initialExpression") {
      this.note({ kind: "initial", at });
      return;
    }
    if (last === "sdc-questionnaire-enableWhenExpression") {
      this.note({ kind: "condition", at });
      return;
    }
    if (last === "questionnaire-itemControl") {
      const concept = e.valueCodeableConcept as { coding?: { code?: string }[]; text?: string } | undefined;
      const code = concept?.coding?.[0]?.code ?? concept?.text ?? "";
      if (CONTROLS.has(code)) this.note({ kind: "extension", at, variant: `control.${code}` });
      else this.note({ kind: "extension", at, variant: "otherControl", raw: code });
      return;
    }
    const known = EXTENSION_NAMES[last];
    const values = last === "questionnaire-optionPrefix" && typeof e.valueString === "string" ? [e.valueString] : [];
    if (known) this.note({ kind: "extension", at, variant: known, values });
    else this.note({ kind: "extension", at, variant: "otherExtension", raw: last });
  }

  /** A property of an item or of the questionnaire that the survey has no place for. */
  property(at: LossPlace, key: string, value: unknown): void {
    const known = PROPERTY_NAMES[key];
    const values =
      key === "code" && Array.isArray(value)
        ? value.flatMap((c: { code?: unknown }) => (typeof c?.code === "string" ? [c.code] : []))
        : key === "prefix" && typeof value === "string"
          ? [value]
          : [];
    if (known) this.note({ kind: "property", at, variant: known, values });
    else this.note({ kind: "property", at, variant: "otherProperty", raw: key });
  }

  /** The lines of the preview, in the caller's language: each loss once, grouped by kind. */
  lines(culture: string | undefined): string[] {
    const t = (key: string, vars: Record<string, string | number> = {}) =>
      translate(culture, `fhir.${key}`, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])));
    const quoted = (text: string) => t("notKept.quoted", { text });
    const nameOf = (loss: Loss) => t(`name.${loss.variant}`, { name: loss.raw ?? "" });
    const groups = new Map<string, { first: Loss; places: Map<string, string>; values: string[]; names: string[] }>();
    for (const [i, loss] of this.list.entries()) {
      // The total's extensions and properties are one line: there is one total.
      const key = EACH.has(loss.kind)
        ? `${loss.kind} ${i}`
        : loss.at.unit === "total"
          ? "total"
          : [loss.kind, loss.variant ?? "", loss.raw ?? "", UNNAMED.has(loss.kind) ? loss.at.unit : ""].join("\u0000");
      const group = groups.get(key) ?? { first: loss, places: new Map<string, string>(), values: [], names: [] };
      groups.set(key, group);
      const total = loss.at.unit === "total";
      const name = loss.variant && (loss.kind === "extension" || loss.kind === "property") ? nameOf(loss) : null;
      // The total's line names each thing with its own values.
      const named = name && total && loss.values?.length ? `${name} (${loss.values.join(", ")})` : name;
      if (named && !group.names.includes(named)) group.names.push(named);
      const label = loss.about ? `${quoted(loss.at.name)} (${loss.about})` : quoted(loss.at.name);
      if (!group.places.has(loss.at.linkId)) group.places.set(loss.at.linkId, label);
      if (!total) for (const v of loss.values ?? []) if (!group.values.includes(v)) group.values.push(v);
    }
    const rank = (kind: LossKind) => Math.min(KINDS.indexOf(kind), COSMETIC);
    return [...groups.values()]
      .map((g, order) => ({ ...g, order }))
      .sort((a, b) => rank(a.first.kind) - rank(b.first.kind) || a.order - b.order)
      .map(({ first, places, values, names }) => {
        const count = first.count ?? places.size;
        const labels = [...places.values()];
        const items = labels.slice(0, NAMES_SHOWN).join(", ") + (labels.length > NAMES_SHOWN ? " …" : "");
        const shown = values.slice(0, VALUES_SHOWN).join(", ") + (values.length > VALUES_SHOWN ? " …" : "");
        if (first.kind === "extension" || first.kind === "property") {
          const name = names.join(", ");
          const unit = first.at.unit;
          return t(`notKept.${first.kind}`, {
            what:
              unit === "questionnaire" || unit === "total"
                ? t(`notKept.unit.${unit}`, { item: quoted(first.at.name) })
                : t(`notKept.unit.${unit}`, { count }),
            name: shown ? `${name} (${shown})` : name,
          });
        }
        return t(`notKept.${first.kind}`, {
          count,
          item: quoted(first.at.name),
          items,
          values: shown,
          type: first.variant ?? "",
        });
      });
  }
}
