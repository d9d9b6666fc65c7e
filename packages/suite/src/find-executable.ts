import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The first executable named `name` in PATH, then in `extraDirs` (for sbin directories that are
 * not on a non-root PATH). Throws with `installHint` when there is none.
 */
export function findExecutable(name: string, extraDirs: string[], installHint: string): string {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), ...extraDirs];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(
    `${name} not found on PATH or in ${extraDirs.join(', ')}: ${installHint} (make deps)`
  );
}
