/**
 * Image answer markers (sections 5 and 9), without schemas so the fill page can use them without loading zod:
 * positions are fractions 0..1 of the image's width and height.
 */

/** Where a marker sits that has no position yet, and where the first new one goes. */
export const DEFAULT_MARKER_POSITION = 0.05;
