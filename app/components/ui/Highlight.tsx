import { Hyphenated } from "~/components/ui/Hyphenated";

/** The text with each case-insensitive occurrence of `query` marked. */
export function Highlight({ text, query }: { text: string; query: string }) {
  const q = query.trim();
  // Long words get their syllable breaks (a title on a phone breaks with a hyphen, not anywhere).
  if (!q)
    return (
      <>
        <Hyphenated text={text} />
      </>
    );
  const lower = text.toLocaleLowerCase("de-DE");
  const needle = q.toLocaleLowerCase("de-DE");
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, at)) {
    if (i > at) parts.push({ text: text.slice(at, i), hit: false });
    parts.push({ text: text.slice(i, i + needle.length), hit: true });
    at = i + needle.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), hit: false });
  return (
    <>
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i}>
            <Hyphenated text={p.text} />
          </mark>
        ) : (
          <span key={i}>
            <Hyphenated text={p.text} />
          </span>
        ),
      )}
    </>
  );
}
