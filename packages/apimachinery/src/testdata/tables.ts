// The Table of one realistic object as the server prints it (its kind's columns from the schema
// model, the cells from the printers), for each group's Table tests: columns named as kubectl
// shows them, those of priority above 0 (shown by -o wide) marked *.
import { builtinSchemaModel, toTable } from '../schema-model/index.js';

const model = builtinSchemaModel();

/** The group, version and kind of a realistic object's key (`v1/Pod`, `apps/v1/Deployment`). */
function gvkOf(key: string): { group: string; version: string; kind: string } {
  const parts = key.split('/');
  const kind = parts.pop() ?? '';
  const version = parts.pop() ?? '';
  return { group: parts[0] ?? '', version, kind };
}

export interface PrintedRow {
  /** The column names, `*` after those of priority above 0. */
  columns: string[];
  cells: unknown[];
  /** Whether the kind declares its own columns (else Name and Created At). */
  declared: boolean;
}

/** The Table row of `obj`, an object of the kind `key` names, at `now` (ms since the epoch). */
export function tableOf(key: string, obj: Record<string, unknown>, now: number): PrintedRow {
  const message = model.kind(gvkOf(key))?.message;
  const t = toTable(message, [obj], { apiVersion: 'meta.orch.io/v1', includeObject: 'None', now });
  return {
    columns: t.columnDefinitions.map((c) => (c.priority > 0 ? `${c.name}*` : c.name)),
    cells: t.rows[0]?.cells ?? [],
    declared: (message?.tableColumns?.length ?? 0) > 0,
  };
}
