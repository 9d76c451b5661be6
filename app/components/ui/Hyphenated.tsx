import { Fragment } from "react";
import { hyphenParts } from "~/domain/hyphenate";

/**
 * A title whose long words break at a syllable with a hyphen on a narrow screen (app/domain/hyphenate.ts). The
 * soft hyphen is drawn by the style sheet (`.shy::after`), so the text itself, what screen readers read,
 * search and copy stay the title as it was written.
 */
export function Hyphenated({ text }: { text: string }) {
  const parts = hyphenParts(text);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <span className="shy" aria-hidden="true" /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
