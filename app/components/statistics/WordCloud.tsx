export interface CloudWord {
  Text: string;
  Count: number;
}

/** 9 colour bands, from the rarest words to the most frequent (section 9). */
export const CLOUD_BANDS = 9;

/** The band (0–8) of a word's count between the smallest and the largest count. */
export function bandOf(count: number, min: number, max: number): number {
  if (max <= min) return CLOUD_BANDS - 1;
  return Math.min(CLOUD_BANDS - 1, Math.floor(((count - min) / (max - min)) * CLOUD_BANDS));
}

/**
 * The word cloud of the free-text answers: words in a flowing layout, larger and darker the more often they
 * were written. Drawn on the server without measuring text, so it shows before scripts run and on small
 * devices; a screen reader reads it as a list of words with their counts.
 */
export function WordCloud({ words, label }: { words: CloudWord[]; label: string }) {
  if (words.length === 0) return null;
  const counts = words.map((w) => w.Count);
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  // Alphabetical, as a list is read (a screen reader too); the size of each word says its count.
  const ordered = [...words].sort((a, b) => a.Text.localeCompare(b.Text, "de"));
  return (
    <ul className="word-cloud" aria-label={label}>
      {ordered.map((w) => {
        const band = bandOf(w.Count, min, max);
        return (
          <li key={w.Text} className={`word-cloud__word word-cloud__word--${band}`}>
            {w.Text}
            <span className="visually-hidden"> ({w.Count})</span>
          </li>
        );
      })}
    </ul>
  );
}
