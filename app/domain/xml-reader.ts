/**
 * A small, strict XML reader for the files the app reads back (XLIFF): elements with their attributes and
 * text, the five named entities and numeric character references, CDATA sections, comments and processing
 * instructions skipped. No DTDs (a DOCTYPE is refused), no external entities: nothing a file can make the
 * reader fetch or expand. Pure, the same in the browser and on the server.
 */

export interface XmlElement {
  /** The name as written, prefix included ("xliff", "x:mrk"). */
  name: string;
  /** The name without its prefix. */
  local: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export class XmlError extends Error {
  override name = "XmlError";
}

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decode(text: string, at: number): string {
  return text.replace(/&([^;\s&]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(";")) throw new XmlError(`A "&" that starts no reference near character ${at}`);
    if (ref in NAMED) return NAMED[ref]!;
    const code = /^#x[0-9a-f]+$/i.test(ref)
      ? parseInt(ref.slice(2), 16)
      : /^#[0-9]+$/.test(ref)
        ? parseInt(ref.slice(1), 10)
        : NaN;
    if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff) {
      throw new XmlError(`Unknown reference "&${ref};" near character ${at}`);
    }
    return String.fromCodePoint(code);
  });
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ATTRIBUTE = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/;

/** Reads a document: its root element. Throws XmlError for anything that is not well-formed. */
export function readXml(text: string): XmlElement {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const fail = (what: string): never => {
    throw new XmlError(`${what} near character ${i}`);
  };
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = text.slice(i, lt === -1 ? text.length : lt);
    if (chunk) {
      if (stack.length > 0) stack.at(-1)!.children.push(decode(chunk, i));
      else if (chunk.trim()) fail("Text outside the root element");
    }
    if (lt === -1) break;
    i = lt;
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end === -1) fail("An unclosed comment");
      i = end + 3;
    } else if (text.startsWith("<![CDATA[", i)) {
      const end = text.indexOf("]]>", i + 9);
      if (end === -1 || stack.length === 0) fail("A CDATA section out of place");
      stack.at(-1)!.children.push(text.slice(i + 9, end));
      i = end + 3;
    } else if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end === -1) fail("An unclosed processing instruction");
      i = end + 2;
    } else if (text.startsWith("<!", i)) {
      fail("A document type declaration (not read)");
    } else if (text.startsWith("</", i)) {
      const name = NAME.exec(text.slice(i + 2))?.[0];
      const open = stack.pop();
      if (!name || !open || open.name !== name) fail(`A closing tag </${name ?? ""}> that closes nothing open`);
      i = i + 2 + name!.length;
      while (/\s/.test(text[i] ?? "")) i++;
      if (text[i] !== ">") fail("A closing tag without its >");
      i++;
    } else {
      const name = NAME.exec(text.slice(i + 1))?.[0];
      if (!name) fail("A tag without a name");
      i = i + 1 + name!.length;
      const attributes: Record<string, string> = {};
      for (;;) {
        const m = ATTRIBUTE.exec(text.slice(i, i + 100_000));
        if (!m) break;
        if (m[1]! in attributes) fail(`The attribute ${m[1]} twice`);
        attributes[m[1]!] = decode(m[3] ?? m[4] ?? "", i);
        i += m[0].length;
      }
      while (/\s/.test(text[i] ?? "")) i++;
      const selfClosing = text.startsWith("/>", i);
      if (!selfClosing && text[i] !== ">") fail(`The tag <${name}> is not closed`);
      i += selfClosing ? 2 : 1;
      const element: XmlElement = { name: name!, local: name!.split(":").pop()!, attributes, children: [] };
      if (stack.length > 0) stack.at(-1)!.children.push(element);
      else if (root) fail("A second root element");
      else root = element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (stack.length > 0) throw new XmlError(`The element <${stack.at(-1)!.name}> is not closed`);
  if (!root) throw new XmlError("No root element");
  return root;
}

/** The element's child elements with this local name. */
export function childrenNamed(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== "string" && c.local === local);
}

/** All text inside an element, its inline elements' text included. */
export function textOf(element: XmlElement): string {
  return element.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");
}

/** Text for an XML element's content or a quoted attribute value. */
export function escapeXml(text: string): string {
  return (
    text
      // Control characters XML 1.0 cannot carry at all, not even as references.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
      .replace(/\r/g, "&#13;")
  );
}
