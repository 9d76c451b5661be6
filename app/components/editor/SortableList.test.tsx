import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { addLocale } from "~/i18n";
import { staffTexts, TextsProvider } from "~/texts";
import deAuthoring from "../../../locales/de-DE/authoring.json";
import enAuthoring from "../../../locales/en-US/authoring.json";
import { SortableList } from "./SortableList";

interface Item {
  id: number;
  title: string;
}

const items: Item[] = [
  { id: 1, title: "Anamnese" },
  { id: 2, title: "Befund" },
];

beforeAll(() => {
  addLocale("de-DE", deAuthoring);
  addLocale("en-US", enAuthoring);
});

/** The element drawn at "/" of a router, as a page draws it on the server (the move buttons are forms). */
async function render(element: ReactElement, lng: string) {
  const routes = [{ path: "/", element }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("no page");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <TextsProvider texts={staffTexts(lng)}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </TextsProvider>,
  );
}

const list = (lng: string) =>
  render(
    <SortableList
      items={items}
      getId={(i) => i.id}
      getLabel={(i) => i.title}
      renderItem={(item, handle) => (
        <div>
          {handle}
          {item.title}
        </div>
      )}
      onMove={async () => true}
      kind="category"
      label="Kategorien"
    />,
    lng,
  );

/** Each drag handle's attributes, by name. */
function handles(markup: string): Record<string, string>[] {
  return [...markup.matchAll(/<button [^>]*class="sortable__handle"[^>]*>/g)].map((m) =>
    Object.fromEntries([...m[0].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

describe("SortableList's drag handles", () => {
  it.each([
    ["de-DE", ["Anamnese verschieben", "Befund verschieben"], "Ziehgriff"],
    ["en-US", ["Move Anamnese", "Move Befund"], "drag handle"],
  ])(
    "in %s are named by their item alone, described by the instructions, with a role description of the language",
    async (lng, names, role) => {
      const drawn = handles(await list(lng));
      expect(drawn.map((h) => h["aria-label"])).toEqual(names);
      for (const handle of drawn) {
        expect(handle["aria-roledescription"]).toBe(role);
        // The keyboard instructions are the handle's description (the drag library's hidden text), said once.
        expect(handle["aria-describedby"]).toMatch(/^DndDescribedBy-/);
      }
    },
  );
});
