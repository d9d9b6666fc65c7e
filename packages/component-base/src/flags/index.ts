export { parseDuration } from './duration.js';
export type { FlagSpec, FlagSpecs, FlagValues } from './parse-flags.js';
export { parseFlags } from './parse-flags.js';
