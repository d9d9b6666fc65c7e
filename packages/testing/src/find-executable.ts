import { constants } from 'node:fs';
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
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), ...extraDirs];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
