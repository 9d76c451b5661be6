/** Without schemas, so the fill page can use it without loading zod. */

/**
 * What an answer option says: an image marker's Title, another answer's Text. A survey kept offline before
 * image markers had a Title still has their Text, and reads the same.
 */
export function answerText(option: { Text?: string; Title?: string }): string {
  return option.Title ?? option.Text ?? "";
}
