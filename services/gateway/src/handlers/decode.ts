// Reading a request body into an object of the kind the path names: JSON, YAML or the binary
// envelope, a JSON object, with apiVersion, kind, name and namespace agreeing with the request,
// its fields checked against the schema model (fieldValidation Ignore, Warn, Strict), then its
// defaults set from the schema model (before admission and the strategy's validation).
import type { HttpRequest } from '../http/handler.js';
import { Lexer, Parser, parseDocument } from 'yaml';
import {
  applyDefaults as applySchemaDefaults,
  pruneObject,
} from '@orch/apimachinery/apiextensions';
import { newBadRequest, newUnsupportedMediaType } from '@orch/apimachinery/errors';
import type { StatusCause } from '@orch/apimachinery/errors';
import { EnvelopeError, decodeEnvelope, protobufMediaTypes } from '@orch/apimachinery/protobuf';
import {
  applyDefaults,
  builtinSchemaModel,
  parseJsonStrict,
  validateObject,
} from '@orch/apimachinery/schema-model';
import { formatApiVersion } from '@orch/apimachinery/schema';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ObjectKind } from '../registry/rest.js';
import { bodyFrom } from '../request/context.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/**
 * Deepest nesting a body (and an object made from one, as a patch result) may have. Upstream's
 * JSON decoder stops at 10000; ours is lower because the YAML writer recurses about 17 frames a
 * level and overflows near 640 (a depth the fuzzer reached: a stored object no GET could write).
 */
export const maxDecodingDepth = 256;
/** Aliases a YAML body may expand (the yaml package's default, named here). */
export const maxYamlAliasCount = 100;

/** How deeply objects and arrays nest in `value`, counted without recursion. */
export function nestingDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > max) max = d + 1;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}

/** How deeply `[` and `{` nest in JSON text (outside strings), in one pass without parsing. */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return max;
}

/**
 * How deeply YAML text nests, as the depth of the yaml package's syntax-tree parser (its own
 * stack, no recursion: block and flow collections alike, quoted scalars and comments read as
 * YAML reads them), about one more than the nesting of the value it makes. Stops counting past
 * `limit`. Run before the composer, which recurses per level.
 */
export function yamlTextDepth(text: string, limit: number): number {
  const parser = new Parser();
  let max = 0;
  for (const lexeme of new Lexer().lex(text)) {
    for (const _token of parser.next(lexeme));
    if (parser.stack.length > max) {
      max = parser.stack.length;
      if (max > limit) return max;
    }
  }
  return max;
}

/**
 * The syntax-tree depth past which a YAML body is refused before it is composed: the value's
 * nesting plus the document, with room to spare (the value's own depth is checked after).
 */
export const maxYamlTextDepth = maxDecodingDepth + 8;

const tooDeep = () =>
  newBadRequest(`the request body is nested too deeply: exceeded max depth of ${maxDecodingDepth}`);

/** 400 past {@link maxDecodingDepth} (Go's decoder: "exceeded max depth"). */
export function checkDepth(value: unknown): void {
  if (nestingDepth(value) > maxDecodingDepth) throw tooDeep();
}

/** The fieldValidation query parameter: Warn when unset; anything else than the three is 400. */
export function parseFieldValidation(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw newBadRequest(
    `fieldValidation parameter unsupported: ${v}; must be one of Ignore, Warn, Strict`
  );
}

export interface ParsedBody {
  value: unknown;
  /** Paths of keys met twice in one object (JSON) or the duplicate keys (YAML). */
  duplicates: string[];
}

/** The body's value, seeing duplicate keys; nested at most {@link maxDecodingDepth} deep. */
export function parseBodyStrict(body: Buffer, contentType: string): ParsedBody {
  const parsed = parseBodyValue(body, contentType);
  checkDepth(parsed.value);
  return parsed;
}

function parseBodyValue(body: Buffer, contentType: string): ParsedBody {
  if (protobufMediaTypes.includes(contentType)) {
    try {
      return { value: decodeEnvelope(body, builtinSchemaModel()), duplicates: [] };
    } catch (err) {
      if (err instanceof EnvelopeError)
        throw newBadRequest(`the request body is not a valid protobuf envelope: ${err.message}`);
      throw err;
    }
  }
  const text = body.toString('utf8');
  if (text.trim() === '') throw newBadRequest('the request body is empty');
  if (contentType === 'application/yaml') {
    // Warnings about a client's YAML (an unknown tag) stay with the document, never in the
    // gateway's log: hostile bodies must not be able to flood it.
    const yamlOptions = { schema: 'core', logLevel: 'error' } as const;
    // Before composing: the composer recurses per level (100,000 flow brackets overflowed the
    // stack after a second and more of the gateway's time).
    if (yamlTextDepth(text, maxYamlTextDepth) > maxYamlTextDepth) throw tooDeep();
    const doc = parseDocument(text, { ...yamlOptions, uniqueKeys: true });
    const duplicates = doc.errors
      .filter((e) => e.code === 'DUPLICATE_KEY')
      .map((e) => text.slice(e.pos[0], e.pos[1]).split(':')[0]?.trim() ?? '');
    const other = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY');
    if (other.length > 0)
      throw newBadRequest(`the request body is not valid YAML: ${other[0]?.message ?? ''}`);
    try {
      const maxAliasCount = maxYamlAliasCount;
      const value =
        duplicates.length > 0
          ? parseDocument(text, { ...yamlOptions, uniqueKeys: false }).toJS({ maxAliasCount })
          : doc.toJS({ maxAliasCount });
      return { value: value as unknown, duplicates };
    } catch (err) {
      throw newBadRequest(`the request body is not valid YAML: ${(err as Error).message}`);
    }
  }
  // Before parsing: the parsers recurse, and a stack overflow is better never reached.
  if (jsonTextDepth(text) > maxDecodingDepth) throw tooDeep();
  try {
    return parseJsonStrict(text);
  } catch (err) {
    throw newBadRequest(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function parseBody(body: Buffer, contentType: string): unknown {
  return parseBodyStrict(body, contentType).value;
}

/**
 * Checks an object's fields against its kind's schema, pruning unknown fields: wrong types and
 * missing required fields are 400 whatever the level (listing unknown and duplicate fields too);
 * unknown and duplicate fields are 400 at Strict, one warning each at Warn, silent at Ignore.
 * Kinds without a schema are left as they are.
 */
export function checkFields(
  def: ObjectKind,
  obj: unknown,
  duplicates: string[],
  mode: FieldValidation,
  warn: (text: string) => void
): void {
  // A custom resource: the fields its schema does not specify are pruned and reported
  // (upstream's unstructured decoding with the structural schema's pruning).
  const crSchema = def.customResource?.version.schema?.openAPIV3Schema;
  if (crSchema) {
    const pruned = pruneObject(obj, crSchema, { isResourceRoot: true });
    return reportUnknown(pruned, duplicates, mode, warn);
  }
  const kind = builtinSchemaModel().kind({
    group: def.group,
    version: def.version,
    kind: def.kind,
  });
  const unknown: string[] = [];
  if (kind) {
    const r = validateObject(kind.message, obj);
    unknown.push(...r.unknown);
    if (r.problems.length > 0) {
      const strictCauses = [
        ...unknown.map((f) => `unknown field "${f}"`),
        ...duplicates.map((f) => `duplicate field "${f}"`),
      ];
      const causes: StatusCause[] = [
        ...r.problems.map((p) => ({ reason: p.reason, message: p.message, field: p.field })),
        ...unknown.map((f) => ({
          reason: 'FieldValueInvalid',
          message: 'unknown field',
          field: f,
        })),
        ...duplicates.map((f) => ({
          reason: 'FieldValueDuplicate',
          message: 'duplicate field',
          field: f,
        })),
      ];
      const what = r.problems.map((p) =>
        p.reason === 'FieldValueRequired'
          ? `${p.field}: Required value`
          : `${p.field}: ${p.message}`
      );
      throw newBadRequest(
        `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${[...what, ...strictCauses].join(', ')}`,
        causes
      );
    }
  }
  reportUnknown(unknown, duplicates, mode, warn);
}

/** Unknown and duplicate fields: 400 at Strict, one warning each at Warn, silent at Ignore. */
function reportUnknown(
  unknown: string[],
  duplicates: string[],
  mode: FieldValidation,
  warn: (text: string) => void
): void {
  const messages = [
    ...unknown.map((f) => `unknown field "${f}"`),
    ...duplicates.map((f) => `duplicate field "${f}"`),
  ];
  if (messages.length === 0 || mode === 'Ignore') return;
  if (mode === 'Strict') throw newBadRequest(`strict decoding error: ${messages.join(', ')}`);
  for (const m of messages) warn(m);
}

/** Sets the kind's defaults (k8s: the defaulting that decoding does); kinds without a schema have none. */
export function defaultObject(def: ObjectKind, obj: ApiObject): void {
  const crSchema = def.customResource?.version.schema?.openAPIV3Schema;
  if (crSchema) return applySchemaDefaults(obj, crSchema);
  const kind = builtinSchemaModel().kind({
    group: def.group,
    version: def.version,
    kind: def.kind,
  });
  if (kind) applyDefaults(kind.message, obj);
}

export function decodeObject(
  body: unknown,
  def: ObjectKind,
  target: { namespace?: string | undefined; name?: string }
): ApiObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw newBadRequest(`the body must be a ${def.kind} object`);
  }
  // Again here: a patch can build an object deeper than its body.
  checkDepth(body);
  const obj = body as Record<string, unknown>;
  const apiVersion = formatApiVersion(def);
  if (obj['apiVersion'] !== undefined && obj['apiVersion'] !== apiVersion) {
    throw newBadRequest(
      `the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${apiVersion})`
    );
  }
  if (obj['kind'] !== undefined && obj['kind'] !== def.kind) {
    throw newBadRequest(
      `the kind in the data (${String(obj['kind'])}) does not match the expected kind (${def.kind})`
    );
  }
  obj['apiVersion'] = apiVersion;
  obj['kind'] = def.kind;
  const meta = obj['metadata'] ?? {};
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    throw newBadRequest('metadata must be an object');
  const m = meta as ApiObject['metadata'];
  obj['metadata'] = m;
  if (target.name !== undefined && m.name !== undefined && m.name !== target.name) {
    throw newBadRequest(
      `the name of the object (${m.name}) does not match the name on the URL (${target.name})`
    );
  }
  if (target.name !== undefined) m.name = target.name;
  if (def.namespaced) {
    if (
      m.namespace !== undefined &&
      m.namespace !== '' &&
      target.namespace !== undefined &&
      m.namespace !== target.namespace
    ) {
      throw newBadRequest(
        'the namespace of the provided object does not match the namespace sent on the request'
      );
    }
    if (target.namespace) m.namespace = target.namespace;
  }
  return obj as ApiObject;
}

/** Parses, field-checks, decodes and defaults the body of a create or update. */
export function decodeRequestObject(
  body: Buffer,
  contentType: string,
  def: ObjectKind,
  target: { namespace?: string | undefined; name?: string },
  mode: FieldValidation,
  warn: (text: string) => void
): ApiObject {
  // Custom resources are JSON and YAML only (upstream: no protobuf serializer for them).
  if (def.customResource && protobufMediaTypes.includes(contentType)) {
    throw newUnsupportedMediaType(contentType, ['application/json', 'application/yaml']);
  }
  const parsed = parseBodyStrict(body, contentType);
  const obj = decodeObject(parsed.value, def, target);
  checkFields(def, obj, parsed.duplicates, mode, warn);
  defaultObject(def, obj);
  return obj;
}

export function readBody(req: HttpRequest): Buffer {
  return bodyFrom(req) ?? Buffer.alloc(0);
}
