/**
 * Word frequencies of free-text answers for the word cloud (section 2), with German and English stop
 * words left out. Pure: the server counts them, and the page may do the same on a list it holds.
 */

const english =
  "a about above after again against all am an and any are aren't as at be because been before being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't have haven't having he her here hers herself him himself his how i i'm if in into is isn't it it's its itself just let's me more most mustn't my myself no nor not now of off on once only or other ought our ours ourselves out over own same she should shouldn't so some such than that that's the their theirs them themselves then there there's these they they're this those through to too under until up very was wasn't we we're were weren't what when where which while who whom why will with won't would wouldn't yes you you're your yours yourself yourselves";

const german =
  "aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes auch auf aus bei beim bin bis bist da damit dann das dass daß dein deine deinem deinen deiner dem den denn der des dessen deshalb die dies diese diesem diesen dieser dieses doch dort du durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges er es etwas euer eure für gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem ins ist ja jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem keinen keiner keines können könnte machen man manche manchem manchen mancher manches mein meine meinem meinen meiner meines mich mir mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines selbst sich sie sind so solche solchem solchen solcher solches soll sollte sondern sonst über um und uns unser unsere unter viel vom von vor war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur zwar zwischen";

/** The words left out of the word cloud (lower case). */
export const STOP_WORDS: ReadonlySet<string> = new Set([...english.split(" "), ...german.split(" ")]);

/** Words of a text: letters and digits (any script), apostrophes and hyphens inside a word kept. */
export function wordsOf(text: string): string[] {
  // Lower case as in German and English (no language of these changes it beyond the default mapping).
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Whether a word counts: not a stop word, at least 2 characters, not a bare number. */
export function isCloudWord(word: string): boolean {
  return word.length >= 2 && !STOP_WORDS.has(word.replace("’", "'")) && !/^\p{N}+$/u.test(word);
}

/**
 * Adds the words of one text (given `times` times) to a running count. Every word is counted; which ones
 * count for the cloud is decided once per distinct word, in `topWords`.
 */
function countWords(counts: Map<string, number>, text: string, times = 1): void {
  for (const word of wordsOf(text)) counts.set(word, (counts.get(word) ?? 0) + times);
}

/**
 * The cloud words of one text with how often it uses each: what the server stores per answer
 * (response_words), so that a cloud is a grouped count over the answers that count.
 */
export function cloudWordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of wordsOf(text)) if (isCloudWord(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The most frequent cloud words, most frequent first, ties alphabetically. */
export function topWords(counts: ReadonlyMap<string, number>, limit = 100): { Text: string; Count: number }[] {
  return [...counts]
    .filter(([word]) => isCloudWord(word))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([Text, Count]) => ({ Text, Count }));
}

/** Word frequencies of a list of texts. */
export function wordFrequencies(texts: Iterable<string>, limit = 100): { Text: string; Count: number }[] {
  const counts = new Map<string, number>();
  for (const text of texts) countWords(counts, text);
  return topWords(counts, limit);
}

/** Word frequencies of texts counted by how many times each was given. */
export function countedWordFrequencies(
  texts: Iterable<[text: string, times: number]>,
  limit = 100,
): { Text: string; Count: number }[] {
  const counts = new Map<string, number>();
  for (const [text, times] of texts) countWords(counts, text, times);
  return topWords(counts, limit);
}
