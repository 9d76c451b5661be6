import { useEditorState, type Editor } from "@tiptap/react";
import type { KeyboardEvent, ReactNode } from "react";
import { useTranslation } from "~/texts";
import { ColorPicker } from "./ColorPicker";
import { ALIGNMENTS, type Alignment } from "./extensions";
import { Icon, type IconName } from "./icons";
import { LinkPopover } from "./LinkPopover";
import { FONT_FAMILIES, FONT_SIZES, HEADING_LEVELS, fontFamilyOption, type HeadingLevel } from "./options";

const alignIcons: Record<Alignment, IconName> = {
  left: "alignLeft",
  center: "alignCenter",
  right: "alignRight",
  justify: "alignJustify",
};

function ToolButton(props: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="rt-btn"
      // Named by its tooltip alone: the same text as aria-label too is read once more as its description.
      title={props.label}
      aria-pressed={props.pressed}
      disabled={props.disabled}
      data-toolbar-item
      // Keeps the text's selection and focus while a button is pressed.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/** Left/Right, Home/End move between the toolbar's controls. */
function moveInToolbar(event: KeyboardEvent<HTMLDivElement>) {
  const target = event.target as HTMLElement;
  if (!target.hasAttribute("data-toolbar-item") || target.tagName === "SELECT") return;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-toolbar-item]:not(:disabled)")];
  const at = items.indexOf(target);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: items.length - 1 }[event.key];
  if (to === undefined || at < 0) return;
  event.preventDefault();
  items[(to + items.length) % items.length]?.focus();
}

/** The toolbar of section 2: undo, redo, font size and name, marks, alignment, lists, format, colours, link. */
export function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const { t } = useTranslation();
  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const style = e.getAttributes("textStyle");
      const level = HEADING_LEVELS.find((l) => e.isActive("heading", { level: l }));
      return {
        canUndo: e.can().undo(),
        canRedo: e.can().redo(),
        bold: e.isActive("bold"),
        italic: e.isActive("italic"),
        strike: e.isActive("strike"),
        underline: e.isActive("underline"),
        align: ALIGNMENTS.find((a) => e.isActive({ textAlign: a })) ?? "left",
        bulletList: e.isActive("bulletList"),
        orderedList: e.isActive("orderedList"),
        block: level ? String(level) : "p",
        fontSize: FONT_SIZES.includes(String(style.fontSize)) ? String(style.fontSize) : "",
        fontFamily: fontFamilyOption(style.fontFamily as string | undefined),
        color: (style.color as string | undefined) ?? null,
        backgroundColor: (style.backgroundColor as string | undefined) ?? null,
        link: e.isActive("link"),
        href: String(e.getAttributes("link").href ?? ""),
      };
    },
  });
  // The text takes focus at once, not a frame later as the chain's focus does: a key pressed right after a
  // colour is picked or a link applied (the button that had focus is gone) reaches the text, not the page.
  const run = () => {
    editor.view.focus();
    return editor.chain().focus();
  };

  return (
    <div role="toolbar" aria-label={label} className="rt-toolbar" onKeyDown={moveInToolbar}>
      <div className="rt-toolbar__group">
        <ToolButton label={t("richText.undo")} disabled={!s.canUndo} onClick={() => run().undo().run()}>
          <Icon name="undo" />
        </ToolButton>
        <ToolButton label={t("richText.redo")} disabled={!s.canRedo} onClick={() => run().redo().run()}>
          <Icon name="redo" />
        </ToolButton>
      </div>
      <div className="rt-toolbar__group">
        <select
          className="input rt-select"
          title={t("richText.fontSize")}
          value={s.fontSize}
          data-toolbar-item
          onChange={(e) => (e.target.value ? run().setFontSize(e.target.value).run() : run().unsetFontSize().run())}
        >
          <option value="">{t("richText.standardSize")}</option>
          {FONT_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <select
          className="input rt-select"
          title={t("richText.fontFamily")}
          value={s.fontFamily}
          data-toolbar-item
          onChange={(e) => (e.target.value ? run().setFontFamily(e.target.value).run() : run().unsetFontFamily().run())}
        >
          <option value="">{t("richText.standardFont")}</option>
          {FONT_FAMILIES.map((font) => (
            <option key={font.value} value={font.value}>
              {font.name}
            </option>
          ))}
        </select>
      </div>
      <div className="rt-toolbar__group">
        <ToolButton label={t("richText.bold")} pressed={s.bold} onClick={() => run().toggleBold().run()}>
          <strong aria-hidden="true">B</strong>
        </ToolButton>
        <ToolButton label={t("richText.italic")} pressed={s.italic} onClick={() => run().toggleItalic().run()}>
          <em aria-hidden="true">I</em>
        </ToolButton>
        <ToolButton label={t("richText.strike")} pressed={s.strike} onClick={() => run().toggleStrike().run()}>
          <s aria-hidden="true">S</s>
        </ToolButton>
        <ToolButton label={t("richText.underline")} pressed={s.underline} onClick={() => run().toggleUnderline().run()}>
          <u aria-hidden="true">U</u>
        </ToolButton>
      </div>
      <div className="rt-toolbar__group">
        {ALIGNMENTS.map((align) => (
          <ToolButton
            key={align}
            label={t(`richText.align.${align}`)}
            pressed={s.align === align}
            onClick={() => run().setTextAlign(align).run()}
          >
            <Icon name={alignIcons[align]} />
          </ToolButton>
        ))}
      </div>
      <div className="rt-toolbar__group">
        <ToolButton
          label={t("richText.bulletList")}
          pressed={s.bulletList}
          onClick={() => run().toggleBulletList().run()}
        >
          <Icon name="bulletList" />
        </ToolButton>
        <ToolButton
          label={t("richText.orderedList")}
          pressed={s.orderedList}
          onClick={() => run().toggleOrderedList().run()}
        >
          <Icon name="orderedList" />
        </ToolButton>
        <select
          className="input rt-select"
          title={t("richText.format")}
          value={s.block}
          data-toolbar-item
          onChange={(e) => {
            const level = Number(e.target.value) as HeadingLevel;
            if (e.target.value === "p") run().setParagraph().run();
            else run().setHeading({ level }).run();
          }}
        >
          <option value="p">{t("richText.paragraph")}</option>
          {HEADING_LEVELS.map((level) => (
            <option key={level} value={String(level)}>
              {t("richText.heading", { level })}
            </option>
          ))}
        </select>
      </div>
      <div className="rt-toolbar__group">
        <ColorPicker
          kind="backgroundColor"
          current={s.backgroundColor}
          onPick={(c) => run().setBackgroundColor(c).run()}
          onClear={() => run().unsetBackgroundColor().run()}
        />
        <ColorPicker
          kind="textColor"
          current={s.color}
          onPick={(c) => run().setColor(c).run()}
          onClear={() => run().unsetColor().run()}
        />
      </div>
      <div className="rt-toolbar__group">
        <LinkPopover
          href={s.href}
          onApply={(href) => {
            if (editor.state.selection.empty && !editor.isActive("link")) {
              run()
                .insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] })
                .run();
            } else {
              run().extendMarkRange("link").setLink({ href }).run();
            }
          }}
        />
        <ToolButton
          label={t("richText.unlink")}
          disabled={!s.link}
          onClick={() => run().extendMarkRange("link").unsetLink().run()}
        >
          <Icon name="unlink" />
        </ToolButton>
      </div>
    </div>
  );
}
