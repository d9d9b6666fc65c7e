// An apply conflict as the API answers it (k8s managedfields/internal conflict.go
// NewConflictError and errors.NewApplyConflict): 409 Conflict, one FieldManagerConflict cause
// per field naming the manager that holds it, and upstream's message.
import { StatusError } from '@orch/apimachinery/errors';
import type { StatusCause } from '@orch/apimachinery/errors';
import type { Path } from '@orch/apimachinery/fieldpath';
import { pathString } from '@orch/apimachinery/fieldpath';
import type { Conflict } from '@orch/apimachinery/merge';
import { parseManagerIdentifier } from './managed-fields.js';

/** k8s printManager: `"mgr"`, with its subresource, and `using <version>` for an updater. */
export function printManager(manager: string): string {
  const e = parseManagerIdentifier(manager);
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') {
    s += ` using ${e.apiVersion ?? ''}`;
    if (e.time) s += ` at ${e.time}`;
  }
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only) {
    return `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${pathString(only.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts)
    byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager) ?? []) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

export function newApplyConflictError(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: conflictMessage(conflicts),
    reason: 'Conflict',
    details: { causes },
    code: 409,
  });
}
