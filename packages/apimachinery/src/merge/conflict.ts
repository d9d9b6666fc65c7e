// Apply conflicts (structured-merge-diff merge/conflict.go): a field another manager owns with
// a different value than the one applied, as data (manager, path) so that the API server can
// answer 409 with one cause per field.
import type { ManagedFields, Path } from '../fieldpath/index.js';
import { pathString } from '../fieldpath/index.js';

export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

/** Conflict.Error. */
export function conflictString(c: Conflict): string {
  return `conflict with ${JSON.stringify(c.manager)}: ${pathString(c.path)}`;
}

/** Conflicts: the error an Apply without force fails with. */
export class ConflictsError extends Error {
  override readonly name = 'ConflictsError';
  readonly conflicts: readonly Conflict[];

  constructor(conflicts: readonly Conflict[]) {
    super(conflictsMessage(conflicts));
    this.conflicts = conflicts;
  }
}

/** Conflicts.Error: one line, or the conflicts grouped by manager in name order. */
export function conflictsMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) return conflictString(conflicts[0] as Conflict);
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager) ?? [];
    paths.push(c.path);
    byManager.set(c.manager, paths);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${JSON.stringify(manager)}:`);
    for (const p of byManager.get(manager) as Path[]) lines.push(`- ${pathString(p)}`);
  }
  return lines.join('\n');
}

/** ConflictsFromManagers: one conflict per path of each manager's set. */
export function conflictsFromManagers(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const [manager, vs] of sets) vs.set.iterate((path) => out.push({ manager, path }));
  return out;
}
