import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import href from "~/styles/index.css?url";

let text: string | null | undefined;

/**
 * The built root stylesheet's text, for the document to carry (components/layout/root-styles.tsx); null
 * where there is no built file (the development server serves the stylesheet itself). Read once.
 */
export function rootStylesText(): string | null {
  if (text === undefined) {
    try {
      // This module is in the server build (build/server, its chunks in build/server/assets); the browser's
      // files are in build/client.
      const here = fileURLToPath(import.meta.url);
      const build = here.slice(0, here.lastIndexOf(`${path.sep}server${path.sep}`));
      text = fs.readFileSync(path.join(build, "client", href), "utf8");
    } catch {
      text = null;
    }
  }
  return text;
}
