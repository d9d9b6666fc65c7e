import { accessSync, constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * The first executable named `name` in PATH, then in `extraDirs` (for sbin directories that are
 * not on a non-root PATH); undefined when there is none.
 */
export async function findExecutable(
  name: string,
  extraDirs: string[] = []
): Promise<string | undefined> {
  for (const candidate of candidates(name, extraDirs)) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Like {@link findExecutable}, synchronous, and throwing with `installHint` when there is none. */
export function findExecutableSync(name: string, extraDirs: string[], installHint: string): string {
  for (const candidate of candidates(name, extraDirs)) {
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

function candidates(name: string, extraDirs: string[]): string[] {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), ...extraDirs];
  return dirs.map((dir) => join(dir, name));
}
