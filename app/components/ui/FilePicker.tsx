import type { ReactNode } from "react";

/**
 * Without JavaScript the browser's own file field shows which files were chosen, to go with the page's form. No
 * ">" in it: the server writes a style element's text escaped.
 */
const WITHOUT_SCRIPTS =
  ".file-pick__input{position:static!important;width:auto;height:auto;margin:0;clip:auto;overflow:visible}" +
  ".file-pick__text{display:none}.file-pick{border:0;padding:0;background:none}";

/**
 * A file field that speaks the page's language: the browser's own button and its "No file chosen" speak the
 * browser's, whatever the page's. The input (`children`, with the class "file-pick__input") stays the control
 * that keyboards and screen readers reach, out of sight, named by its field's label and by this one, which wraps
 * it, is drawn as a button with `text`, and opens the browser's file chooser, with or before the page's scripts.
 * Without scripts the browser's own field shows instead, as it alone can say which files were chosen before the
 * form is sent.
 */
export function FilePicker({ text, children }: { text: string; children: ReactNode }) {
  return (
    <label className="btn file-pick" data-testid="file-pick">
      {children}
      <span className="file-pick__text">{text}</span>
      <noscript>
        <style>{WITHOUT_SCRIPTS}</style>
      </noscript>
    </label>
  );
}
