/**
 * Numbers as the interface's language writes them: a decimal comma in German ("1,5"), a point in English
 * ("1.5"), thousands grouped; at most `digits` decimals, or exactly that many with `fixed`. The one home of
 * this rule for the statistics' tables, badges and charts.
 */
export function formatNumber(value: number, locale: string, digits = 2, fixed = false): string {
  return value.toLocaleString(locale, { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 });
}
