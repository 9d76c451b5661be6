import { z } from "zod";

/**
 * zod for every module that may run in the browser: they import `z` from here, never from "zod" itself
 * (eslint.config.js), so that this runs before their first schema is made.
 *
 * In the browser zod builds no parsers from source text (`jitless`). Its first object schema would otherwise
 * probe `new Function("")`, which the pages' Content-Security-Policy (script-src without 'unsafe-eval')
 * blocks: the parsers it would build cannot run there anyway, and Firefox logs each probe as an error. The
 * server keeps them: it has no such policy, and the API parses every request.
 *
 * package.json names this file under "sideEffects": the bundler would otherwise drop the call, since the
 * module only passes zod on.
 */
if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
