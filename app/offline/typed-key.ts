/** Where typed values not yet kept are noted in local storage (typed-journal.ts); nothing but the name. */
export const TYPED_KEY = "fill:typed";
