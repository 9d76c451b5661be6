import { useTranslation } from "~/texts";
import type { ReactNode } from "react";
import { HashTabs } from "~/components/ui/HashTabs";

export const editorTabs = ["start", "intro", "preliminary", "questionnaire", "outro", "languages"] as const;
export type EditorTab = (typeof editorTabs)[number];

/** The editor's tabs by URL hash; #start when there is none (section 2). */
export function EditorTabs({
  hydrated,
  marks,
  panels,
}: {
  hydrated: boolean;
  marks: Partial<Record<EditorTab, boolean>>;
  panels: Record<EditorTab, ReactNode>;
}) {
  const { t } = useTranslation();
  return (
    <HashTabs
      tabs={editorTabs}
      label={t("editor.tabs")}
      titleKey={(tab) => `editor.tab.${tab}`}
      hydrated={hydrated}
      marks={marks}
      markTitle={t("publishCheck.tabMark")}
      panels={panels}
    />
  );
}
