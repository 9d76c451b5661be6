import { TextAlign } from "@tiptap/extension-text-align";
import { TextStyleKit } from "@tiptap/extension-text-style";
import { StarterKit } from "@tiptap/starter-kit";
import { isAllowedLink } from "./link";
import { HEADING_LEVELS } from "./options";

/** Text alignments of the toolbar. */
export const ALIGNMENTS = ["left", "center", "right", "justify"] as const;
export type Alignment = (typeof ALIGNMENTS)[number];

/**
 * The editor's schema: only what the toolbar offers and the server's rich-text filter keeps (no line
 * height, headings h1 to h4, links to http, https and mailto addresses only).
 */
export function richTextExtensions() {
  return [
    StarterKit.configure({
      heading: { levels: [...HEADING_LEVELS] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        isAllowedUri: (url) => isAllowedLink(url),
        shouldAutoLink: (url) => isAllowedLink(url),
      },
    }),
    TextStyleKit.configure({ lineHeight: false }),
    TextAlign.configure({ types: ["heading", "paragraph"], alignments: [...ALIGNMENTS] }),
  ];
}
