// The Swagger 2.0 document in gnostic's protobuf form (openapi.v2.Document, google/gnostic
// openapiv2/OpenAPIv2.proto), the representation kubectl asks /openapi/v2 for
// (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`). client-go's OpenAPISchema()
// only decodes protobuf: a JSON answer makes every `kubectl create -f`/`apply -f` with the default
// `--validate=strict` fail with "proto: cannot parse invalid wire-format data".
//
// Hand-written wire encoding of the subset of the Swagger model openapi.ts generates; unknown keys
// are an error so the two representations cannot silently drift apart. Vendor extensions are
// carried as gnostic does: a NamedAny whose Any holds the value as YAML.
import { stringify as toYaml } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The YAML texts of values already encoded, keyed by their JSON text. */
const yamlTexts = new Map<string, string>();

/**
 * The YAML text of a value, as `yaml` writes it, remembered by the value's JSON text: a few
 * values (the actions, the group-version-kind of each path's operations) recur on every path,
 * and `yaml` is slow at building its document each time. A value whose JSON text does not say
 * it exactly (-0, a number that is not finite) is not remembered.
 */
function yamlOf(value: Json): string {
  let exact = true;
  const key = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v))) exact = false;
    return v;
  });
  if (!exact) return toYaml(value);
  let text = yamlTexts.get(key);
  if (text === undefined) {
    text = toYaml(value);
    if (yamlTexts.size >= 10_000) yamlTexts.clear();
    yamlTexts.set(key, text);
  }
  return text;
}

/** The one-byte varints (most tags and lengths), shared: chunks are only read, by concat. */
const oneByte = Array.from({ length: 128 }, (_, i) => Buffer.from([i]));

/** A protobuf message under construction: fields appended in call order. */
class Message {
  readonly #chunks: Buffer[] = [];

  #tag(field: number, wireType: number): void {
    this.#varint(field * 8 + wireType);
  }

  #varint(n: number): void {
    if (n < 128) {
      this.#chunks.push(oneByte[n]!);
      return;
    }
    const bytes: number[] = [];
    let v = n;
    while (v > 127) {
      bytes.push((v % 128) | 128);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.#chunks.push(Buffer.from(bytes));
  }

  bytes(field: number, value: Buffer): this {
    this.#tag(field, 2);
    this.#varint(value.length);
    this.#chunks.push(value);
    return this;
  }

  string(field: number, value: string | undefined): this {
    return value === undefined || value === ''
      ? this
      : this.bytes(field, Buffer.from(value, 'utf8'));
  }

  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.bytes(field, Buffer.from(v, 'utf8'));
    return this;
  }

  /** A double (wire type 1, little-endian IEEE 754), when set. */
  double(field: number, value: Json | undefined): this {
    if (typeof value !== 'number') return this;
    this.#tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.#chunks.push(b);
    return this;
  }

  /** An int64 (varint), when set; negative values never occur in schemas. */
  int(field: number, value: Json | undefined): this {
    if (typeof value !== 'number' || value < 0) return this;
    this.#tag(field, 0);
    this.#varint(value);
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    if (!value) return this;
    this.#tag(field, 0);
    this.#varint(1);
    return this;
  }

  message(field: number, value: Message | undefined): this {
    return value === undefined ? this : this.bytes(field, value.finish());
  }

  messages(field: number, values: readonly Message[]): this {
    for (const v of values) this.bytes(field, v.finish());
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

function obj(value: Json | undefined, where: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`openapi v2 protobuf: ${where} is not an object`);
  }
  return value;
}

function str(value: Json | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strs(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Rejects keys the encoder does not map, except vendor extensions. */
function checkKeys(o: JsonObject, known: readonly string[], where: string): void {
  for (const k of Object.keys(o)) {
    if (!k.startsWith('x-') && !known.includes(k)) {
      throw new Error(`openapi v2 protobuf: ${where}.${k} has no encoding`);
    }
  }
}

/** NamedAny entries for the `x-` keys of an object. */
function vendorExtensions(o: JsonObject): Message[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, value]) =>
      new Message().string(1, name).message(2, new Message().string(2, yamlOf(value)))
    );
}

function schema(value: Json | undefined, where: string): Message {
  const s = obj(value, where);
  checkKeys(
    s,
    [
      '$ref',
      'format',
      'description',
      'default',
      'required',
      'type',
      'items',
      'properties',
      'additionalProperties',
      // The JSON-schema keywords custom resources' schemas carry (gnostic's Schema 3, 6-18, 20, 24, 29, 30).
      'title',
      'multipleOf',
      'maximum',
      'exclusiveMaximum',
      'minimum',
      'exclusiveMinimum',
      'maxLength',
      'minLength',
      'pattern',
      'maxItems',
      'minItems',
      'uniqueItems',
      'maxProperties',
      'minProperties',
      'enum',
      'allOf',
      'externalDocs',
      'example',
    ],
    where
  );
  const m = new Message()
    .string(1, str(s['$ref']))
    .string(2, str(s['format']))
    .string(3, str(s['title']))
    .string(4, str(s['description']));
  if (s['default'] !== undefined) m.message(5, new Message().string(2, yamlOf(s['default'])));
  m.double(6, s['multipleOf'])
    .double(7, s['maximum'])
    .bool(8, s['exclusiveMaximum'] === true)
    .double(9, s['minimum'])
    .bool(10, s['exclusiveMinimum'] === true)
    .int(11, s['maxLength'])
    .int(12, s['minLength'])
    .string(13, str(s['pattern']))
    .int(14, s['maxItems'])
    .int(15, s['minItems'])
    .bool(16, s['uniqueItems'] === true)
    .int(17, s['maxProperties'])
    .int(18, s['minProperties']);
  m.strings(19, strs(s['required']));
  const enumValues = s['enum'];
  if (Array.isArray(enumValues))
    m.messages(
      20,
      enumValues.map((v) => new Message().string(2, yamlOf(v)))
    );
  const additional = s['additionalProperties'];
  if (typeof additional === 'boolean') m.message(21, new Message().bool(2, additional));
  else if (additional !== undefined)
    m.message(21, new Message().message(1, schema(additional, `${where}.additionalProperties`)));
  const type = s['type'];
  if (type !== undefined)
    m.message(22, new Message().strings(1, typeof type === 'string' ? [type] : strs(type)));
  if (s['items'] !== undefined)
    m.message(23, new Message().message(1, schema(s['items'], `${where}.items`)));
  if (s['properties'] !== undefined) {
    const props = Object.entries(obj(s['properties'], `${where}.properties`)).map(([name, p]) =>
      new Message().string(1, name).message(2, schema(p, `${where}.properties.${name}`))
    );
    m.message(25, new Message().messages(1, props));
  }
  const allOf = s['allOf'];
  if (Array.isArray(allOf))
    m.messages(
      24,
      allOf.map((a, i) => schema(a, `${where}.allOf[${i}]`))
    );
  const docs = s['externalDocs'];
  if (docs !== undefined) {
    const d = obj(docs, `${where}.externalDocs`);
    m.message(29, new Message().string(1, str(d['description'])).string(2, str(d['url'])));
  }
  if (s['example'] !== undefined) m.message(30, new Message().string(2, yamlOf(s['example'])));
  return m.messages(31, vendorExtensions(s));
}

function parameter(value: Json | undefined, where: string): Message {
  const p = obj(value, where);
  const place = str(p['in']);
  if (place === 'body') {
    checkKeys(p, ['name', 'in', 'description', 'required', 'schema'], where);
    const body = new Message()
      .string(1, str(p['description']))
      .string(2, str(p['name']))
      .string(3, place)
      .bool(4, p['required'] === true)
      .message(5, schema(p['schema'], `${where}.schema`))
      .messages(6, vendorExtensions(p));
    return new Message().message(1, new Message().message(1, body));
  }
  checkKeys(p, ['name', 'in', 'description', 'required', 'type', 'uniqueItems'], where);
  // Query and path sub-schemas share fields 1-4; `type` is 6 for a query parameter, 5 for a path one.
  const sub = new Message()
    .bool(1, p['required'] === true)
    .string(2, place)
    .string(3, str(p['description']))
    .string(4, str(p['name']));
  let oneof: number;
  if (place === 'query') {
    sub
      .string(6, str(p['type']))
      .bool(20, p['uniqueItems'] === true)
      .messages(23, vendorExtensions(p));
    oneof = 3;
  } else if (place === 'path') {
    sub
      .string(5, str(p['type']))
      .bool(19, p['uniqueItems'] === true)
      .messages(22, vendorExtensions(p));
    oneof = 4;
  } else {
    throw new Error(`openapi v2 protobuf: ${where} is in ${String(place)}`);
  }
  const nonBody = new Message().message(oneof, sub);
  return new Message().message(1, new Message().message(2, nonBody));
}

function parameters(value: Json | undefined, where: string): Message[] {
  return (Array.isArray(value) ? value : []).map((p, i) => parameter(p, `${where}[${i}]`));
}

function operation(value: Json | undefined, where: string): Message {
  const op = obj(value, where);
  checkKeys(
    op,
    [
      'tags',
      'description',
      'operationId',
      'produces',
      'consumes',
      'parameters',
      'responses',
      'schemes',
    ],
    where
  );
  const responses = Object.entries(obj(op['responses'], `${where}.responses`)).map(([code, r]) => {
    const resp = obj(r, `${where}.responses.${code}`);
    checkKeys(resp, ['description', 'schema'], `${where}.responses.${code}`);
    const response = new Message().string(1, str(resp['description']));
    if (resp['schema'] !== undefined) {
      response.message(
        2,
        new Message().message(1, schema(resp['schema'], `${where}.responses.${code}.schema`))
      );
    }
    return new Message().string(1, code).message(2, new Message().message(1, response));
  });
  return new Message()
    .strings(1, strs(op['tags']))
    .string(3, str(op['description']))
    .string(5, str(op['operationId']))
    .strings(6, strs(op['produces']))
    .strings(7, strs(op['consumes']))
    .messages(8, parameters(op['parameters'], `${where}.parameters`))
    .message(9, new Message().messages(1, responses))
    .strings(10, strs(op['schemes']))
    .messages(13, vendorExtensions(op));
}

const pathItemFields: Partial<Record<string, number>> = {
  get: 2,
  put: 3,
  post: 4,
  delete: 5,
  patch: 8,
};

function pathItem(value: Json | undefined, where: string): Message {
  const item = obj(value, where);
  checkKeys(item, [...Object.keys(pathItemFields), 'parameters'], where);
  const m = new Message();
  for (const [method, field] of Object.entries(pathItemFields)) {
    if (field !== undefined && item[method] !== undefined)
      m.message(field, operation(item[method], `${where}.${method}`));
  }
  return m
    .messages(9, parameters(item['parameters'], `${where}.parameters`))
    .messages(10, vendorExtensions(item));
}

/** Encodes a Swagger 2.0 document (as openapi.ts builds it) as an openapi.v2.Document. */
export function encodeOpenApiV2Protobuf(document: unknown): Buffer {
  const doc = obj(document as Json, 'document');
  checkKeys(
    doc,
    ['swagger', 'info', 'paths', 'definitions', 'consumes', 'produces', 'schemes'],
    'document'
  );
  const info = obj(doc['info'], 'info');
  checkKeys(info, ['title', 'version', 'description'], 'info');
  const paths = Object.entries(obj(doc['paths'], 'paths')).map(([name, item]) =>
    new Message().string(1, name).message(2, pathItem(item, `paths.${name}`))
  );
  const definitions = Object.entries(obj(doc['definitions'], 'definitions')).map(([name, s]) =>
    new Message().string(1, name).message(2, schema(s, `definitions.${name}`))
  );
  return new Message()
    .string(1, str(doc['swagger']))
    .message(
      2,
      new Message()
        .string(1, str(info['title']))
        .string(2, str(info['version']))
        .string(3, str(info['description']))
        .messages(7, vendorExtensions(info))
    )
    .strings(5, strs(doc['schemes']))
    .strings(6, strs(doc['consumes']))
    .strings(7, strs(doc['produces']))
    .message(
      8,
      new Message().messages(1, vendorExtensions(obj(doc['paths'], 'paths'))).messages(2, paths)
    )
    .message(9, new Message().messages(1, definitions))
    .messages(16, vendorExtensions(doc))
    .finish();
}
