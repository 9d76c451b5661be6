import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { addLocale } from "~/i18n";
import { staffTexts, TextsProvider } from "~/texts";
import deCommon from "../../../locales/de-DE/common.json";
import enCommon from "../../../locales/en-US/common.json";
import { compareValues, DataTable, type TableColumn } from "./DataTable";

interface Fruit {
  id: number;
  name: string;
  patient: string;
  count: number | null;
}

const fruits: Fruit[] = [
  { id: 1, name: "Zitrone", patient: "S10", count: 2 },
  { id: 2, name: "Äpfel", patient: "S2", count: null },
  { id: 3, name: "Birne", patient: "S1", count: 7 },
  { id: 4, name: "apfelsine", patient: "S3", count: 0 },
];

const columns: TableColumn<Fruit>[] = [
  { id: "name", header: "Frucht", rowHeader: true, sortValue: (f) => f.name },
  { id: "patient", header: "Umfrage-ID", sortValue: (f) => f.patient },
  { id: "count", header: "Anzahl", numeric: true, sortValue: (f) => f.count },
  { id: "note", header: "Notiz", cell: (f) => `#${f.id}` },
];

beforeAll(() => {
  for (const [lng, common] of [
    ["de-DE", deCommon],
    ["en-US", enCommon],
  ] as const) {
    addLocale(lng, common);
  }
});

const render = (element: ReactElement, lng = "de-DE") =>
  renderToString(<TextsProvider texts={staffTexts(lng)}>{element}</TextsProvider>);

const table = (initialSort?: { id: string; desc: boolean }, lng?: string) =>
  render(
    <DataTable
      caption="Früchte"
      rows={fruits}
      rowId={(f) => String(f.id)}
      columns={columns}
      initialSort={initialSort}
    />,
    lng,
  );

/** The rows' first cells (their header cells), in the order drawn. */
const order = (markup: string) => [...markup.matchAll(/<th scope="row"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
/** Each sort button's name: its text without the order's mark (hidden from screen readers). */
const buttonNames = (markup: string) =>
  [...markup.matchAll(/<button [^>]*>(.*?)<\/button>/g)].map((m) =>
    m[1].replace(/<span aria-hidden="true"[^>]*>.*?<\/span>/g, "").replace(/<[^>]+>|<!-- -->/g, ""),
  );
/** Each column header's aria-sort (or null). */
const ariaSorts = (markup: string) =>
  [...markup.matchAll(/<th scope="col"([^>]*)>/g)].map((m) => /aria-sort="([^"]*)"/.exec(m[1])?.[1] ?? null);

describe("DataTable on the server", () => {
  it("draws a real table with its caption, rows in their own order and aria-sort on the sortable headers", () => {
    const markup = table();
    expect(markup).toMatch(/^<table><caption>Früchte<\/caption><thead><tr><th scope="col"/);
    expect(order(markup)).toEqual(["Zitrone", "Äpfel", "Birne", "apfelsine"]);
    expect(ariaSorts(markup)).toEqual(["none", "none", "none", null]);
    // An empty value shows as a dash; a column with its own cells draws them.
    expect(markup).toContain('<td class="num">–</td><td>#2</td>');
    expect(markup).toContain('<td class="num">0</td><td>#4</td>');
  });

  it("makes each sortable header a button named after its column in both languages, disabled until scripts run", () => {
    const de = table(undefined, "de-DE");
    const buttons = [...de.matchAll(/<button ([^>]*)>/g)].map((m) => m[1]);
    expect(buttons).toHaveLength(3);
    for (const b of buttons) {
      expect(b).toContain('type="button"');
      expect(b).toContain('disabled=""');
    }
    expect(buttonNames(de)).toEqual(["Nach Frucht sortieren", "Nach Umfrage-ID sortieren", "Nach Anzahl sortieren"]);
    expect(buttonNames(table(undefined, "en-US"))).toEqual(["Sort by Frucht", "Sort by Umfrage-ID", "Sort by Anzahl"]);
    // The header's text is seen; the words around it are for screen readers only.
    expect(de).toContain(
      '<button type="button" class="table__sort" disabled=""><span class="visually-hidden">Nach </span>Anzahl<span class="visually-hidden"> sortieren</span>',
    );
    // The unsortable column's header is plain text.
    expect(de).toContain('<th scope="col">Notiz</th>');
  });

  it("sorts texts in the language's order, ascending and descending, and says so in aria-sort", () => {
    const up = table({ id: "name", desc: false });
    // "Ä" as "A", small and capital letters alike (a code-point order would put "Zitrone" first, "Äpfel" last).
    expect(order(up)).toEqual(["Äpfel", "apfelsine", "Birne", "Zitrone"]);
    expect(ariaSorts(up)).toEqual(["ascending", "none", "none", null]);
    const down = table({ id: "name", desc: true });
    expect(order(down)).toEqual(["Zitrone", "Birne", "apfelsine", "Äpfel"]);
    expect(ariaSorts(down)).toEqual(["descending", "none", "none", null]);
  });

  it("sorts ids with their digits as numbers and figures by value, empty ones last either way", () => {
    expect(order(table({ id: "patient", desc: false }))).toEqual(["Birne", "Äpfel", "apfelsine", "Zitrone"]);
    const most = table({ id: "count", desc: true });
    expect(order(most)).toEqual(["Birne", "Zitrone", "apfelsine", "Äpfel"]);
    expect(ariaSorts(most)).toEqual(["none", "none", "descending", null]);
    expect(order(table({ id: "count", desc: false }))).toEqual(["apfelsine", "Zitrone", "Birne", "Äpfel"]);
  });

  it("lets a row draw itself, keeping the sorted order", () => {
    const markup = render(
      <DataTable
        rows={fruits}
        rowId={(f) => String(f.id)}
        columns={columns}
        initialSort={{ id: "count", desc: true }}
        renderRow={(f) => (
          <tr data-id={f.id}>
            <td>{f.name}</td>
          </tr>
        )}
      />,
    );
    expect([...markup.matchAll(/data-id="(\d)"/g)].map((m) => m[1])).toEqual(["3", "1", "4", "2"]);
  });
});

describe("compareValues", () => {
  const collator = new Intl.Collator("de-DE", { numeric: true, sensitivity: "base" });
  it("orders numbers by value, before texts, and texts by the collator", () => {
    expect(compareValues(2, 10, collator)).toBeLessThan(0);
    expect(compareValues(10, "2", collator)).toBeLessThan(0);
    expect(compareValues("S10", "S2", collator)).toBeGreaterThan(0);
    expect(compareValues("Äpfel", "Birne", collator)).toBeLessThan(0);
    expect(compareValues("2024-03-01", "2024-10-01", collator)).toBeLessThan(0);
  });
});
