// Objects → Table: the columns a kind declares in proto/ (table_columns), each filled from a
// JSON path or a named printer, after the Name column; kinds without columns get Name and
// Created At. Cells follow kubectl's printers (k8s pkg/printers/internalversion): the printers
// of one group's kinds are in that group's apis/<group>/printers.ts, the ones several groups
// share below.
import { builtinTablePrinters } from '../apis/index.js';
import type { TablePrinter } from '../apis/index.js';
import {
  at,
  containerImages,
  containerNames,
  formatLabelSelector,
  num,
  since,
} from '../apis/table-cells.js';
import type { MessageSchema, TableColumnSpec } from './schema-model.js';
import { asPartialObjectMetadata } from './partial-object-metadata.js';

export { humanDuration } from '../apis/table-cells.js';

type Json = Record<string, unknown>;

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

// A type alias, so that a Table is the JSON object (Record<string, unknown>) handlers send.
export type Table = {
  kind: 'Table';
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated.',
  priority: 0,
};

const createdAtColumn: TableColumnDefinition = {
  name: 'Created At',
  type: 'date',
  format: '',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
  priority: 0,
};

/** The column definitions of a kind (of its message), Name first. */
export function tableColumnDefinitions(
  message: MessageSchema | undefined
): TableColumnDefinition[] {
  const cols = message?.tableColumns;
  if (!cols || cols.length === 0) return [nameColumn, createdAtColumn];
  return [
    nameColumn,
    ...cols.map(({ name, type, format, description, priority }) => ({
      name,
      type,
      format,
      description,
      priority,
    })),
  ];
}

export interface TableOptions {
  /** `meta.orch.io/v1`, or the group the client asked for. */
  apiVersion: string;
  includeObject: IncludeObject;
  listMeta?: Table['metadata'];
  /** Milliseconds since the epoch, for ages (tests pass a fixed one). */
  now?: number;
}

/** Converts objects of one kind into a Table. */
export function toTable(
  message: MessageSchema | undefined,
  objects: Json[],
  opts: TableOptions
): Table {
  const now = opts.now ?? Date.now();
  const custom =
    message?.tableColumns && message.tableColumns.length > 0 ? message.tableColumns : undefined;
  const rows = objects.map((obj) => {
    const meta = (obj['metadata'] ?? {}) as Json;
    const cells: unknown[] = [meta['name'] ?? ''];
    if (!custom) cells.push(meta['creationTimestamp'] ?? null);
    else for (const col of custom) cells.push(cell(col, obj, now));
    const row: TableRow = { cells };
    if (opts.includeObject === 'Object') row.object = obj;
    if (opts.includeObject === 'Metadata') {
      row.object = asPartialObjectMetadata(obj, opts.apiVersion);
    }
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: opts.listMeta ?? {},
    columnDefinitions: tableColumnDefinitions(message),
    rows,
  };
}

function cell(col: TableColumnSpec, obj: Json, now: number): unknown {
  if (col.source.startsWith('@')) {
    const printer = printers[col.source.slice(1)];
    return printer ? printer(obj, now) : '<unknown>';
  }
  const v = at(obj, col.source);
  if (col.type === 'integer' || col.type === 'number') return typeof v === 'number' ? v : 0;
  if (v === undefined || v === null || v === '') return col.priority > 0 ? '<none>' : '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// The printers whose columns several groups' kinds have.
const sharedPrinters: Readonly<Record<string, TablePrinter>> = {
  age: (o, now) => since(at(o, 'metadata.creationTimestamp'), now),
  readyReplicas: (o) => num(at(o, 'status.readyReplicas')),
  templateContainers: (o) => containerNames(at(o, 'spec.template.spec')),
  templateImages: (o) => containerImages(at(o, 'spec.template.spec')),
  labelSelector: (o) => formatLabelSelector(at(o, 'spec.selector')),
};
for (const name of Object.keys(builtinTablePrinters))
  if (name in sharedPrinters) throw new Error(`table printer ${name} defined twice`);
const printers: Readonly<Record<string, TablePrinter>> = {
  ...sharedPrinters,
  ...builtinTablePrinters,
};

/** The names of the printers a column source may use ("@name"). */
export const tablePrinterNames: readonly string[] = Object.keys(printers);
