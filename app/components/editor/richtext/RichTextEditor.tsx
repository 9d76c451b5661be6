import { EditorContent, useEditor, type Editor } from "@tiptap/react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useEditorMutation } from "../editor-api";
import { richTextExtensions } from "./extensions";
import { Toolbar } from "./Toolbar";

export type RichTextField = "IntroText" | "OutroText";

/** The editor's HTML as it is stored: "" for an empty text. */
function htmlOf(editor: Editor): string {
  return editor.isEmpty ? "" : editor.getHTML();
}

interface RichTextEditorProps {
  surveyId: number;
  field: RichTextField;
  /** The saved HTML (sanitized by the server). */
  html: string;
  editable: boolean;
  labelId: string;
}

/**
 * Intro or outro text in the rich-text editor. Leaving the editor (focus moves outside the editor and
 * its toolbar) saves the HTML when it changed; a failed save brings back the saved text. Until the
 * editor runs, and when it cannot be edited, the saved text is shown as it is.
 */
export function RichTextEditor({ surveyId, field, html, editable, labelId }: RichTextEditorProps) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const wrapper = useRef<HTMLDivElement>(null);
  /** The last HTML the server gave us: what a failed save returns to. */
  const saved = useRef(html);
  /** The editor's own HTML for the saved text: a change is anything else. */
  const baseline = useRef<string | null>(null);
  const extensions = useMemo(() => richTextExtensions(), []);

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
      },
    },
    onCreate: ({ editor: created }) => {
      baseline.current = htmlOf(created);
    },
  });

  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable, false);
  }, [editor, editable]);

  // New data from the server (after a save, or another change): show it unless someone is typing.
  useEffect(() => {
    if (!editor || html === saved.current) return;
    saved.current = html;
    if (!editor.isFocused) {
      editor.commands.setContent(html, { emitUpdate: false });
      baseline.current = htmlOf(editor);
    }
  }, [editor, html]);

  const save = async () => {
    if (!editor || !editable) return;
    const next = htmlOf(editor);
    if (next === baseline.current) return;
    baseline.current = next;
    const result = await mutate("PUT", `/surveys/${surveyId}`, { [field]: next });
    if (!result.ok && !editor.isDestroyed) {
      editor.commands.setContent(saved.current, { emitUpdate: false });
      baseline.current = htmlOf(editor);
    }
  };

  return (
    <div
      ref={wrapper}
      className={`rich-text${editable ? "" : " rich-text--readonly"}`}
      onBlur={(event) => {
        if (!wrapper.current?.contains(event.relatedTarget as Node | null)) void save();
      }}
    >
      {editor && editable ? (
        <Toolbar editor={editor} label={t("richText.toolbar", { name: t(`richText.label.${field}`) })} />
      ) : null}
      {editor ? (
        <EditorContent editor={editor} className="rich-text__frame" />
      ) : (
        <div className="rich-text__frame">
          {html ? (
            <div
              className="rich-text__content"
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
