/**
 * The survey list's title search, one rule for the server and the offline copy: the typed text without
 * surrounding spaces, found anywhere in the title, whatever its case (German case rules).
 */
export function normalizeTitleSearch(typed: string | null | undefined): string {
  return (typed ?? "").trim();
}

export function titleMatches(title: string, typed: string | null | undefined): boolean {
  const needle = normalizeTitleSearch(typed);
  return needle === "" || title.toLocaleLowerCase("de-DE").includes(needle.toLocaleLowerCase("de-DE"));
}
