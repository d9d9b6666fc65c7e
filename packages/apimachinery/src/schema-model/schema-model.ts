// The internal schema model: the API kinds of proto/orch/api compiled once into messages and
// fields with their JSON names, descriptions and markers (list-type, map-type, patch strategy,
// int-or-string, quantity, time...). Field validation, the binary codec, tables and OpenAPI
// are derived from it; custom resource schemas will compile into the same shapes later.
import protobuf from 'protobufjs';
// The descriptor alone: the package's index also loads the gRPC services, which the model does
// not need (every process and test that builds a model would pay for them).
import { apiDescriptor } from '@orch/proto/api-descriptor';
import type { GroupVersionKind } from '../schema/index.js';
import { goAlwaysWritten } from './go-always-written.js';

/** How a message appears in JSON when it is not a plain object. */
export type JsonType =
  | 'quantity'
  | 'int-or-string'
  | 'time'
  | 'micro-time'
  | 'duration'
  | 'raw'
  | 'fields-v1'
  | 'string-list';

export type ScalarType =
  'string' | 'bool' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'double' | 'float' | 'bytes';

/**
 * Whether Go always writes the field (not omitempty, ./go-always-written.ts): its zero value is
 * written as it is, in JSON and in the binary form alike (k8s' generated marshallers write every
 * non-pointer scalar), so that the two read back alike.
 */
function goAlwaysWrites(f: protobuf.Field): boolean {
  const owner = f.parent?.fullName.replace(/^\.orch\.api\./, '') ?? '';
  return goAlwaysWritten.get(owner)?.includes(f.name) === true;
}

const scalarTypes: ReadonlySet<string> = new Set([
  'string',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'double',
  'float',
  'bytes',
]);

/** A field's value type: a scalar or a message (which may have a special JSON form). */
export type ValueType = { scalar: ScalarType } | { message: MessageSchema };

export interface FieldSchema {
  /** The JSON name (as clients write it). */
  name: string;
  number: number;
  description: string;
  /** A list (`repeated`). */
  repeated: boolean;
  /** A map with string keys; `value` is the map's value type. */
  map: boolean;
  value: ValueType;
  required: boolean;
  /** An explicit zero value is kept in JSON (keep_zero or required); otherwise omitempty. */
  keepZero: boolean;
  /** The message's fields appear in the parent's JSON object. */
  inline: boolean;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  mapType?: 'atomic' | 'granular';
  patchStrategy?: string;
  patchMergeKey?: string;
  format?: string;
  /** The value the field takes when a request leaves it out (the default_value option, parsed for the field's type). */
  default?: unknown;
}

export interface TableColumnSpec {
  name: string;
  type: string;
  format: string;
  priority: number;
  /** A JSON path (".spec.nodeName") or a named printer ("@podReady"). */
  source: string;
  description: string;
}

export interface MessageSchema {
  /** Fully qualified proto name, e.g. orch.api.core.v1.Pod. */
  fullName: string;
  name: string;
  description: string;
  jsonType?: JsonType;
  /** x-kubernetes-map-type of the type wherever it is used (upstream +structType=atomic). */
  structType?: 'atomic' | 'granular';
  /** Fields in proto order. */
  fields: FieldSchema[];
  /** Every JSON key of the object, inline fields expanded: key → the field and the inline fields leading to it. */
  jsonFields: Map<string, { field: FieldSchema; via: FieldSchema[] }>;
  tableColumns?: TableColumnSpec[];
  /** The protobufjs type used by the binary codec. */
  type: protobuf.Type;
}

export interface KindSchema {
  gvk: GroupVersionKind;
  message: MessageSchema;
  list?: MessageSchema;
}

/** The proto package of an API group: `orch.api.<first label of the group, or core>.<version>`. */
export function protoPackageOf(group: string, version: string): string {
  const first = group === '' ? 'core' : (group.split('.')[0] ?? group);
  return `orch.api.${first}.${version}`;
}

function option(obj: protobuf.ReflectionObject, name: string): unknown {
  return obj.options?.[`(orch.api.${name})`];
}

function parseColumns(spec: string): TableColumnSpec[] {
  return spec
    .split(';')
    .filter((c) => c.trim() !== '')
    .map((c) => {
      const [
        name = '',
        type = 'string',
        format = '',
        priority = '0',
        source = '',
        description = '',
      ] = c.split('|');
      return { name, type, format, priority: Number(priority), source, description };
    });
}

export class SchemaModel {
  readonly root: protobuf.Root;
  private readonly messages = new Map<string, MessageSchema>();

  constructor(descriptor: Record<string, unknown> = apiDescriptor) {
    this.root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
    this.root.resolveAll();
    const visit = (ns: protobuf.NamespaceBase): void => {
      for (const nested of ns.nestedArray) {
        if (nested instanceof protobuf.Type) this.compile(nested);
        if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested);
      }
    };
    visit(this.root);
    this.expandInline();
  }

  /** The message of a fully qualified name (with or without the leading dot). */
  message(fullName: string): MessageSchema | undefined {
    return this.messages.get(fullName.replace(/^\./, ''));
  }

  /** Every compiled message. */
  allMessages(): MessageSchema[] {
    return [...this.messages.values()];
  }

  /** The schema of a served kind and its list, undefined when no proto defines it. */
  kind(gvk: GroupVersionKind): KindSchema | undefined {
    const pkg = protoPackageOf(gvk.group, gvk.version);
    const message = this.message(`${pkg}.${gvk.kind}`);
    if (!message) return undefined;
    const list = this.message(`${pkg}.${gvk.kind}List`);
    return { gvk, message, ...(list ? { list } : {}) };
  }

  private compile(type: protobuf.Type): MessageSchema {
    const fullName = type.fullName.replace(/^\./, '');
    const existing = this.messages.get(fullName);
    if (existing) return existing;
    const jsonType = option(type, 'json_type') as JsonType | undefined;
    const columns = option(type, 'table_columns') as string | undefined;
    const structType = option(type, 'struct_type') as MessageSchema['structType'];
    const schema: MessageSchema = {
      fullName,
      name: type.name,
      description: type.comment ?? '',
      fields: [],
      jsonFields: new Map(),
      type,
      ...(jsonType ? { jsonType } : {}),
      ...(structType ? { structType } : {}),
      ...(columns ? { tableColumns: parseColumns(columns) } : {}),
    };
    this.messages.set(fullName, schema); // before the fields: messages may be recursive
    for (const f of type.fieldsArray) schema.fields.push(this.compileField(f));
    return schema;
  }

  private compileField(f: protobuf.Field): FieldSchema {
    const isMap = f instanceof protobuf.MapField;
    const typeName = f.type;
    let value: ValueType;
    if (scalarTypes.has(typeName)) {
      value = { scalar: normalizeScalar(typeName) };
    } else {
      const resolved = f.resolvedType;
      if (!(resolved instanceof protobuf.Type))
        throw new Error(`schema model: field ${f.fullName} has an unsupported type ${typeName}`);
      value = { message: this.compile(resolved) };
    }
    const str = (n: string): string | undefined => option(f, n) as string | undefined;
    const listType = str('list_type') as FieldSchema['listType'];
    const mapType = str('map_type') as FieldSchema['mapType'];
    const listMapKeys = str('list_map_keys');
    const patchStrategy = str('patch_strategy');
    const patchMergeKey = str('patch_merge_key');
    const format = str('format');
    const defaultText = str('default_value');
    const defaultValue =
      defaultText === undefined
        ? undefined
        : parseDefault(f.fullName, defaultText, isMap || f.repeated ? undefined : value);
    return {
      name: f.name,
      number: f.id,
      description: f.comment ?? '',
      repeated: f.repeated,
      map: isMap,
      value,
      required: option(f, 'required') === true,
      keepZero:
        option(f, 'keep_zero') === true ||
        option(f, 'required') === true ||
        (!f.repeated && !isMap && 'scalar' in value && goAlwaysWrites(f)),
      inline: option(f, 'inline') === true,
      ...(listType ? { listType } : {}),
      ...(listMapKeys ? { listMapKeys: listMapKeys.split(',') } : {}),
      ...(mapType ? { mapType } : {}),
      ...(patchStrategy ? { patchStrategy } : {}),
      ...(patchMergeKey ? { patchMergeKey } : {}),
      ...(format ? { format } : {}),
      ...(defaultValue !== undefined ? { default: defaultValue } : {}),
    };
  }

  /** Fills jsonFields of every message (after all are compiled, since inline fields nest). */
  private expandInline(): void {
    const expand = (m: MessageSchema): void => {
      if (m.jsonFields.size > 0 || m.fields.length === 0) return;
      for (const f of m.fields) {
        if (f.inline && 'message' in f.value) {
          const inner = f.value.message;
          expand(inner);
          for (const [k, v] of inner.jsonFields)
            m.jsonFields.set(k, { field: v.field, via: [f, ...v.via] });
        } else {
          m.jsonFields.set(f.name, { field: f, via: [] });
        }
      }
    };
    for (const m of this.messages.values()) expand(m);
  }
}

/**
 * A default_value option as the JSON value it stands for: a string field's text as it is, a
 * number or boolean parsed, an int-or-string or quantity by its form, anything else (a message,
 * list or map: `value` undefined for the last two) as JSON. A value that does not parse is an
 * error in proto/, reported when the model is compiled.
 */
function parseDefault(field: string, text: string, value: ValueType | undefined): unknown {
  const fail = (why: string): never => {
    throw new Error(
      `schema model: field ${field} has default_value ${JSON.stringify(text)}: ${why}`
    );
  };
  if (value && 'scalar' in value) {
    switch (value.scalar) {
      case 'string':
        return text;
      case 'bool':
        return text === 'true' ? true : text === 'false' ? false : fail('expected true or false');
      case 'bytes':
        return fail('bytes fields take no default');
      default: {
        const n = Number(text);
        return text.trim() !== '' && Number.isFinite(n) ? n : fail('expected a number');
      }
    }
  }
  const jsonType = value?.message.jsonType;
  if (jsonType === 'int-or-string') return /^-?\d+$/.test(text) ? Number(text) : text;
  if (
    jsonType === 'quantity' ||
    jsonType === 'duration' ||
    jsonType === 'time' ||
    jsonType === 'micro-time'
  )
    return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return fail((err as Error).message);
  }
}

function normalizeScalar(t: string): ScalarType {
  switch (t) {
    case 'sint32':
    case 'sfixed32':
      return 'int32';
    case 'fixed32':
      return 'uint32';
    case 'sint64':
    case 'sfixed64':
      return 'int64';
    case 'fixed64':
      return 'uint64';
    default:
      return t as ScalarType;
  }
}

let shared: SchemaModel | undefined;

/** The model of the built-in kinds, compiled on first use. */
export function builtinSchemaModel(): SchemaModel {
  shared ??= new SchemaModel();
  return shared;
}
