// Custom resources → Table (k8s apiextensions-apiserver pkg/registry/customresource/tableconvertor
// and the default columns of pkg/apiserver/helpers.go): Name, then the CRD version's
// additionalPrinterColumns, each the first value its JSONPath finds, typed by the column
// (string as kubectl prints it, integer, number, boolean, date as an age like `2d`); a path
// that finds nothing is an empty (null) cell. A version without columns gets Age from
// metadata.creationTimestamp, as upstream serves it.
import type { CustomResourceColumnDefinition } from '../types.js';
import { newInternalError } from '../../errors/index.js';
import type {
  Table,
  TableColumnDefinition,
  TableOptions,
  TableRow,
} from '../../schema-model/index.js';
import {
  asPartialObjectMetadata,
  humanDuration,
  tableColumnDefinitions,
} from '../../schema-model/index.js';
import type { JSONPathNode } from './json-path.js';
import { evaluateJSONPath, parseJSONPath } from './json-path.js';

type Json = Record<string, unknown>;

const creationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The columns served when a CRD version lists none (serveDefaultColumnsIfEmpty). */
export const defaultCustomResourceColumns: readonly CustomResourceColumnDefinition[] = [
  {
    name: 'Age',
    type: 'date',
    description: creationTimestampDescription,
    jsonPath: '.metadata.creationTimestamp',
  },
];

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Go's %v of a float64: shortest form, exponent below 1e-4 and from 1e21, two-digit exponents. */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp >= -4 && exp < 21) return String(n);
  const [mantissa = '', e = ''] = n.toExponential().split('e');
  const sign = e.startsWith('-') ? '-' : '+';
  const digits = e.replace(/^[-+]/, '');
  return `${mantissa}e${sign}${digits.padStart(2, '0')}`;
}

/** json.Marshal: map keys sorted, <, > and & escaped. */
function goJson(v: unknown): string {
  const sorted = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sorted);
    if (typeof x === 'object' && x !== null)
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sorted((x as Json)[k])])
      );
    return x;
  };
  return JSON.stringify(sorted(v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

/** jsonpath PrintResults of one value: objects and lists as JSON, the rest as Go prints them. */
function printed(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  if (typeof v === 'object') return goJson(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** cellForJSONValue, and the string columns' printing. */
function cellOf(type: string, v: unknown, now: number): unknown {
  if (type === 'string') return printed(v);
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date': {
      if (typeof v !== 'string') return null;
      if (!rfc3339.test(v)) return '<invalid>';
      const t = Date.parse(v);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

interface CompiledColumn {
  definition: TableColumnDefinition;
  path: JSONPathNode[];
}

function compile(columns: readonly CustomResourceColumnDefinition[]): CompiledColumn[] {
  return columns.map((col) => {
    let path: JSONPathNode[];
    try {
      path = parseJSONPath(col.jsonPath);
    } catch {
      // tableconvertor.New fails; the CRD handler then cannot serve the CR's columns.
      throw newInternalError(
        new Error(`unrecognized column definition ${JSON.stringify(col.jsonPath)}`)
      );
    }
    return {
      path,
      definition: {
        name: col.name,
        type: col.type,
        format: col.format ?? '',
        description:
          col.description !== undefined && col.description !== ''
            ? col.description
            : `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
        priority: col.priority ?? 0,
      },
    };
  });
}

/**
 * Converts custom resources into a Table with the CRD version's printer columns (Age when it
 * lists none); includeObject, listMeta and apiVersion as toTable takes them.
 */
export function customResourceTable(
  columns: readonly CustomResourceColumnDefinition[] | undefined,
  objects: readonly Json[],
  opts: TableOptions
): Table {
  const now = opts.now ?? Date.now();
  const compiled = compile(columns && columns.length > 0 ? columns : defaultCustomResourceColumns);
  const [nameColumn] = tableColumnDefinitions(undefined);
  const rows = objects.map((obj): TableRow => {
    const meta = (obj['metadata'] ?? {}) as Json;
    const cells: unknown[] = [meta['name'] ?? ''];
    for (const col of compiled) {
      const found = evaluateJSONPath(col.path, [obj]);
      cells.push(found.length > 0 ? cellOf(col.definition.type, found[0], now) : null);
    }
    const row: TableRow = { cells };
    if (opts.includeObject === 'Object') row.object = obj;
    if (opts.includeObject === 'Metadata')
      row.object = asPartialObjectMetadata(obj, opts.apiVersion);
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: opts.listMeta ?? {},
    columnDefinitions: [...(nameColumn ? [nameColumn] : []), ...compiled.map((c) => c.definition)],
    rows,
  };
}
