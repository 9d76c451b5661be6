import { EditorContent, useEditor, type Editor } from "@tiptap/react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "~/texts";
import { SaveStatus, saveChanged, useAutosave } from "../saving";
import { richTextExtensions } from "./extensions";
import { Toolbar } from "./Toolbar";

export type RichTextField = "IntroText" | "OutroText";

/** The editor's HTML as it is stored: "" for an empty text. */
function htmlOf(editor: Editor): string {
  return editor.isEmpty ? "" : editor.getHTML();
}

interface RichTextEditorProps {
  /** The saved HTML (sanitized by the server). */
  html: string;
  editable: boolean;
  /** The element that names the text; `name` names it in the toolbar's label. */
  labelId: string;
  name: string;
  /** Elements that say more about the text (its source, a mark to review). */
  describedBy?: string;
  /** The text's language, where it is not the page's (a translation). */
  lang?: string;
  dir?: "ltr" | "rtl";
  /** The unsaved mark's key (saving.tsx) and the save state's test id. */
  saveKey: string;
  testId: string;
  /** Stores the text; gives it back as the server stored it (sanitized), or null when refused. */
  save: (html: string) => Promise<string | null>;
  /** Each change as it is typed. */
  onChange?: (html: string) => void;
}

/**
 * A rich text (the intro or outro, or a translation of one) in the rich-text editor, saved while it is typed
 * and when the editor is left (focus moves outside the editor and its toolbar), with its save state above the
 * toolbar (saving.tsx). A refused save keeps the text in the editor, marked unsaved, and the next change tries
 * again. Until the editor runs, and when it cannot be edited, the saved text is shown as it is.
 */
export function RichTextEditor({
  html,
  editable,
  labelId,
  name,
  describedBy,
  lang,
  dir,
  saveKey,
  testId,
  save,
  onChange,
}: RichTextEditorProps) {
  const { t } = useTranslation();
  const wrapper = useRef<HTMLDivElement>(null);
  /** The last HTML the server gave us. */
  const saved = useRef(html);
  /** The editor's own HTML for the saved text: a change is anything else. */
  const baseline = useRef(html);
  /** The texts this editor's saves stored. */
  const own = useRef(new Set<string>());
  const extensions = useMemo(() => richTextExtensions(), []);
  const saving = useAutosave(saveKey, (next: string) =>
    saveChanged(baseline, next, async (value) => {
      const stored = await save(value);
      // The text as the server stored it (sanitized): when the page's data brings it back, it is this
      // editor's own save, already shown or typed past, never a reason to replace what is in the editor.
      if (stored !== null) own.current.add(stored);
      return stored !== null;
    }),
  );

  const editor = useEditor({
    immediatelyRender: false,
    editable,
    extensions,
    content: html,
    editorProps: {
      attributes: {
        class: "rich-text__content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        "aria-readonly": String(!editable),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(lang ? { lang } : {}),
        ...(dir ? { dir } : {}),
      },
    },
    onCreate: ({ editor: created }) => {
      baseline.current = htmlOf(created);
    },
    onUpdate: ({ editor: changed }) => {
      if (!changed.isEditable) return;
      saving.change(htmlOf(changed));
      onChange?.(htmlOf(changed));
    },
  });

  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable, false);
  }, [editor, editable]);

  // New data from the server: a change made elsewhere is shown unless someone is typing here. The page's data
  // reloaded after one of this editor's saves may arrive after a newer save, or while the toolbar has the focus:
  // it never takes back what was typed since.
  useEffect(() => {
    if (!editor || html === saved.current) return;
    saved.current = html;
    if (own.current.has(html)) return;
    if (!editor.isFocused && saving.state !== "unsaved" && saving.state !== "saving" && saving.state !== "failed") {
      editor.commands.setContent(html, { emitUpdate: false });
      baseline.current = htmlOf(editor);
    }
  }, [editor, html, saving.state]);

  return (
    <div
      ref={wrapper}
      className={`rich-text${editable ? "" : " rich-text--readonly"}`}
      onBlur={(event) => {
        if (!wrapper.current?.contains(event.relatedTarget as Node | null)) void saving.flush();
      }}
    >
      {editor && editable ? (
        <>
          <SaveStatus state={saving.state} testId={testId} />
          <Toolbar editor={editor} label={t("richText.toolbar", { name })} />
        </>
      ) : editor && (saving.state === "failed" || saving.state === "unsaved") ? (
        // Read-only since (the survey left Draft elsewhere): the text typed here stays, and says it was not saved.
        <SaveStatus state={saving.state} testId={testId} />
      ) : null}
      {editor ? (
        <EditorContent editor={editor} className="rich-text__frame" />
      ) : (
        <div className="rich-text__frame">
          {html ? (
            <div
              className="rich-text__content"
              lang={lang}
              dir={dir}
              // Sanitized with an allow-list by the server before it was stored.
              dangerouslySetInnerHTML={{ __html: html }}
            />
          ) : (
            <p className="rich-text__empty">{t("richText.empty")}</p>
          )}
        </div>
      )}
    </div>
  );
}
