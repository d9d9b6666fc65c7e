// Helpers for the complete → validate steps: derivations that can fail are recorded, not thrown,
// so that validate() reports every error at once; invalid options end the process with all of
// them (exit 2, as a flag parse error does).
import { parseDuration } from './duration.js';

/** A value derived from a flag in complete(); a failure is added to `problems` ('' flag: as is). */
export function derive<T>(problems: string[], flag: string, fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    problems.push(flag ? `--${flag}: ${message}` : message);
    return fallback;
  }
}

/** Milliseconds of a duration flag; a malformed one is a problem. */
export function deriveDuration(
  problems: string[],
  flag: string,
  text: string | undefined,
  fallback: string
): number {
  return derive(problems, flag, () => parseDuration(text ?? fallback), 0);
}

/** Thrown by a service's `xOptions(argv)` when validate() found errors (one per line). */
export class InvalidOptionsError extends Error {
  override readonly name = 'InvalidOptionsError';
  constructor(
    readonly component: string,
    readonly errors: string[]
  ) {
    super(errors.join('\n'));
  }
}

/** main.ts: the options, or every error printed and exit 2 when they are invalid. */
export function optionsOrExit<T>(build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (!(err instanceof InvalidOptionsError)) throw err;
    for (const e of err.errors) process.stderr.write(`${err.component}: ${e}\n`);
    process.stderr.write('Run with --help for the flags.\n');
    process.exit(2);
  }
}
