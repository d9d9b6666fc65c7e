// Over 600 lines on purpose: the arbitraries compose one another (bodies from targets, cases
// from bodies); split, each file would export what only the next one reads.
// Generated requests for the fuzzing harness (fast-check arbitraries): from the schema model's
// realistic objects, a valid object of every stored kind served, then mutated (types swapped,
// fields dropped or duplicated, strings at and past their limits, hostile metadata, deep nesting,
// invalid UTF-8, truncated and garbage bodies, YAML with alias bombs, the binary envelope with
// random payloads), sent with every write verb and patch type.
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { canEncode, encodeEnvelope } from '@orch/apimachinery/protobuf';
import { admissionRegistrationGroup, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { realisticObjects } from '@orch/apimachinery/testdata';

/** A stored kind the harness writes: its definition and a valid object to start from. */
export interface FuzzTarget {
  def: ResourceDefinition;
  /** A valid object of the kind without name, namespace or system fields. */
  template: Record<string, unknown>;
  /** How the gateway checks this kind's names (its strategy's rule). */
  nameRule: 'subdomain' | 'label' | 'path-segment';
}

export type FuzzVerb =
  | 'create'
  | 'update'
  | 'update-status'
  | 'patch-merge'
  | 'patch-json'
  | 'patch-strategic'
  | 'apply'
  | 'delete';

export interface FuzzCase {
  target: number;
  verb: FuzzVerb;
  /** The mutation that made the body, for reports and counts. */
  mutation: string;
  contentType: string;
  body: Uint8Array;
  /** The name the request writes (create: from the body; others: the victim). */
  name: string;
}

export const fuzzNamespace = 'fuzz';
export const victimName = 'fuzz-victim';

/**
 * The name an object of the target is given for `base`: `base` itself, except for an
 * APIService, whose name must be `<spec.version>.<spec.group>` (validObject sets both from it).
 */
export function nameFor(t: FuzzTarget, base: string): string {
  return t.def.kind === 'APIService' ? `v1.${base}.fuzz.example.com` : base;
}

/** The target's victim, for update and patch. */
export const victimNameFor = (t: FuzzTarget): string => nameFor(t, victimName);

const systemFields = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'managedFields',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
];

/** Every stored kind that has a realistic object and the three write verbs. */
export function fuzzTargets(): FuzzTarget[] {
  const out: FuzzTarget[] = [];
  for (const def of builtinResources) {
    if (def.virtual) continue;
    // Admission configurations direct every later write: a fuzzed webhook pointing nowhere
    // under failurePolicy Fail makes every write a 500, by design. Their validation has its own
    // tables (gateway registry/admissionregistration); the decoder fuzz still covers them.
    if (def.group === admissionRegistrationGroup) continue;
    // A CRD's name must be <plural>.<group> of its own spec, which the fuzz's names are not;
    // its validation has its own table (gateway registry/apiextensions); the decoder fuzz
    // still covers it.
    if (def.group === 'apiextensions.orch.io') continue;
    // The suite's gateway serves the GA versions and no beta or alpha one: the betas served
    // here were all introduced after 1.22, so they are off without --runtime-config.
    if (/(alpha|beta)\d+$/.test(def.version)) continue;
    if (!['create', 'update', 'patch'].every((v) => def.verbs.includes(v as never))) continue;
    const realistic = realisticObjects[`${formatApiVersion(def)}/${def.kind}`];
    if (!realistic) continue;
    const template = structuredClone(realistic);
    const meta = { ...(template['metadata'] as Record<string, unknown>) };
    for (const f of [...systemFields, 'name', 'namespace', 'ownerReferences']) delete meta[f];
    template['metadata'] = meta;
    // An aggregated ClusterRole changes when other roles are written: victims change only by
    // the requests sent to them.
    delete template['aggregationRule'];
    // A Service's cluster IP and node ports are handed out once: each create asks for fresh ones.
    if (def.group === '' && def.kind === 'Service') stripAllocated(template);
    // A Pod's priority and overhead come from its classes (the Priority and RuntimeClass
    // admission plugins), which this run does not create: the template names none.
    if (def.group === '' && def.kind === 'Pod') stripClassed(template);
    // Path-segment names: RBAC's, CertificateSigningRequests', PersistentVolumes' and claims'
    // (their strategies' rule, ValidatePersistentVolumeName).
    const pathSegment =
      def.group.startsWith('rbac.') ||
      def.resource === 'certificatesigningrequests' ||
      (def.group === '' && ['persistentvolumes', 'persistentvolumeclaims'].includes(def.resource));
    const nameRule = pathSegment
      ? 'path-segment'
      : def.kind === 'Namespace' || (def.group === '' && def.kind === 'Service')
        ? 'label'
        : 'subdomain';
    out.push({ def, template, nameRule });
  }
  return out;
}

function stripClassed(pod: Record<string, unknown>): void {
  const spec = pod['spec'] as Record<string, unknown> | undefined;
  if (!spec) return;
  for (const f of [
    'priorityClassName',
    'priority',
    'preemptionPolicy',
    'runtimeClassName',
    'overhead',
  ])
    delete spec[f];
}

function stripAllocated(svc: Record<string, unknown>): void {
  const spec = svc['spec'] as Record<string, unknown> | undefined;
  if (!spec) return;
  delete spec['clusterIP'];
  delete spec['clusterIPs'];
  for (const p of (spec['ports'] as Record<string, unknown>[] | undefined) ?? [])
    delete p['nodePort'];
}

export function collectionPath(def: ResourceDefinition): string {
  const gv = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
  const ns = def.namespaced ? `/namespaces/${fuzzNamespace}` : '';
  return `${gv}${ns}/${def.resource}`;
}

export function objectPath(def: ResourceDefinition, name: string): string {
  return `${collectionPath(def)}/${encodeURIComponent(name)}`;
}

/** The valid object of a target with this name. */
export function validObject(t: FuzzTarget, name: string): Record<string, unknown> {
  const obj = structuredClone(t.template);
  const meta = obj['metadata'] as Record<string, unknown>;
  meta['name'] = name;
  if (t.def.namespaced) meta['namespace'] = fuzzNamespace;
  const dot = name.indexOf('.');
  if (t.def.kind === 'APIService' && dot > 0) {
    const spec = (obj['spec'] ?? {}) as Record<string, unknown>;
    obj['spec'] = { ...spec, version: name.slice(0, dot), group: name.slice(dot + 1) };
  }
  return obj;
}

type Json = unknown;
type Path = (string | number)[];

/** Every path to a value inside `v` (objects and arrays walked), the root excluded. */
function pathsOf(v: Json, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([...prefix, i]);
      pathsOf(x, [...prefix, i], out);
    });
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      out.push([...prefix, k]);
      pathsOf(x, [...prefix, k], out);
    }
  }
  return out;
}

function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value;
  const parent = path
    .slice(0, -1)
    .reduce<Json>((o, k) => (o as Record<string | number, Json>)[k], root);
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent) && typeof last === 'number') {
    if (value === undefined) parent.splice(last, 1);
    else parent[last] = value;
  } else if (typeof parent === 'object' && parent !== null) {
    const p = parent as Record<string, Json>;
    if (value === undefined) delete p[String(last)];
    else p[String(last)] = value;
  }
  return root;
}

const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

const anyJson: fc.Arbitrary<Json> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string()), { maxKeys: 3 })
);

/** Strings a fuzzer finds interesting: unicode, control characters, separators. */
const hostileString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('', ' ', '-', '.', '..', '/', 'a/b/c', 'Bad Finalizer', '\u0000', 'x'.repeat(64))
);

/** Metadata a client should not be able to store. */
const hostileMeta: fc.Arbitrary<Record<string, Json>> = fc.record(
  {
    resourceVersion: fc.oneof(fc.constantFrom('abc', '-1', '12345678901234567890', '1'), anyJson),
    uid: fc.oneof(fc.string(), anyJson),
    creationTimestamp: fc.oneof(fc.constantFrom('2000-01-01T00:00:00Z', 'yesterday'), anyJson),
    deletionTimestamp: fc.oneof(fc.constant('2030-01-01T00:00:00Z'), anyJson),
    deletionGracePeriodSeconds: anyJson,
    generation: fc.oneof(fc.integer(), fc.double(), anyJson),
    generateName: hostileString,
    labels: fc.oneof(
      fc.dictionary(hostileString, fc.oneof(hostileString, anyJson), { maxKeys: 3 }),
      anyJson
    ),
    annotations: fc.oneof(fc.dictionary(hostileString, hostileString, { maxKeys: 3 }), anyJson),
    finalizers: fc.oneof(
      fc.array(
        fc.oneof(hostileString, fc.constantFrom('orphan', 'foregroundDeletion', 'cleanup')),
        { maxLength: 4 }
      ),
      anyJson
    ),
    ownerReferences: fc.oneof(
      fc.array(
        fc.record(
          {
            apiVersion: fc.oneof(fc.constantFrom('v1', 'apps/v1', 'a/b/c', ''), anyJson),
            kind: fc.oneof(fc.constantFrom('Event', 'ReplicaSet', ''), anyJson),
            name: fc.oneof(hostileString, anyJson),
            uid: fc.oneof(fc.constantFrom('u1', ''), anyJson),
            controller: fc.oneof(fc.boolean(), anyJson),
            blockOwnerDeletion: fc.oneof(fc.boolean(), anyJson),
          },
          { requiredKeys: [] }
        ),
        { maxLength: 3 }
      ),
      anyJson
    ),
    managedFields: fc.oneof(
      fc.array(
        fc.record(
          {
            manager: fc.oneof(hostileString, fc.constant('m'.repeat(129))),
            operation: fc.oneof(fc.constantFrom('Apply', 'Update', 'Patch', ''), anyJson),
            fieldsType: fc.oneof(fc.constantFrom('FieldsV1', 'FieldsV2'), anyJson),
            subresource: fc.oneof(hostileString, fc.constant('s'.repeat(257))),
            fieldsV1: anyJson,
          },
          { requiredKeys: [] }
        ),
        { maxLength: 2 }
      ),
      anyJson
    ),
  },
  { requiredKeys: [] }
);

/** A JSON value nested `depth` levels deep, as text (built iteratively: no recursion). */
function deepJsonText(depth: number, kind: 'array' | 'object'): string {
  if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A YAML billion-laughs document: each level aliases the previous one ten times. */
export function yamlAliasBomb(levels: number): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= levels; i++) {
    lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(',')}]`);
  }
  lines.push(`data: {bomb: *a${levels}}`);
  return lines.join('\n');
}

/** JSON text where the object at `path` repeats its first key with another value. */
function withDuplicateKey(value: Json, path: Path, dupValue: Json): string {
  const render = (v: Json, at: Path): string => {
    if (Array.isArray(v)) return `[${v.map((x, i) => render(x, [...at, i])).join(',')}]`;
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v).map(
        ([k, x]) => `${JSON.stringify(k)}:${render(x, [...at, k])}`
      );
      const first = Object.keys(v)[0];
      if (first !== undefined && JSON.stringify(at) === JSON.stringify(path)) {
        entries.push(`${JSON.stringify(first)}:${JSON.stringify(dupValue) ?? 'null'}`);
      }
      return `{${entries.join(',')}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return render(value, []);
}

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const json = (v: Json): Uint8Array => utf8(JSON.stringify(v) ?? 'null');

interface Body {
  mutation: string;
  contentType?: string;
  body: Uint8Array;
}

/** Limits a string can be at or just past: (where, length, what it becomes). */
interface LimitEdit {
  what: string;
  /** The limit: the edit is made at it, one below and one past. */
  at: number;
  edit: (o: Record<string, Json>, n: number) => void;
}
const metaOf = (o: Record<string, Json>): Record<string, Json> =>
  o['metadata'] as Record<string, Json>;

const limitEdits: readonly LimitEdit[] = [
  { what: 'name', at: 253, edit: (o, n) => (metaOf(o)['name'] = 'a'.repeat(n)) },
  { what: 'name-label', at: 63, edit: (o, n) => (metaOf(o)['name'] = 'a'.repeat(n)) },
  {
    what: 'label-value',
    at: 63,
    edit: (o, n) => (metaOf(o)['labels'] = { k: 'v'.repeat(n) }),
  },
  {
    what: 'label-key-name',
    at: 63,
    edit: (o, n) => (metaOf(o)['labels'] = { ['k'.repeat(n)]: 'v' }),
  },
  {
    what: 'label-key-prefix',
    at: 253,
    edit: (o, n) => (metaOf(o)['labels'] = { [`${'p'.repeat(n)}/k`]: 'v' }),
  },
  {
    what: 'annotations-total',
    at: 256 * 1024,
    edit: (o, n) => (metaOf(o)['annotations'] = { a: 'x'.repeat(n - 1) }),
  },
  {
    what: 'finalizer',
    at: 63,
    edit: (o, n) => (metaOf(o)['finalizers'] = [`example.com/${'f'.repeat(n)}`]),
  },
  {
    what: 'generateName',
    at: 253,
    edit: (o, n) => {
      const m = metaOf(o);
      delete m['name'];
      m['generateName'] = 'g'.repeat(n);
    },
  },
  {
    what: 'body-size',
    at: 3 * 1024 * 1024,
    edit: (o, n) => (o['fuzzPadding'] = 'x'.repeat(n - 200)),
  },
];

/** Byte sequences that are not UTF-8: a lone 0xff, overlong, a surrogate, stray, cut short. */
const invalidUtf8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80], [0xe2, 0x82]];
const yamlType = 'application/yaml';
const protobufType = 'application/vnd.orch.protobuf';

/** Bodies made from one JSON value (an object, or a merge patch). */
function jsonBodies(base: Record<string, Json>, allowBinary: boolean): fc.Arbitrary<Body> {
  const paths = pathsOf(base);
  // Strings at and just past their limits (some bodies of megabytes).
  const edits = fc.tuple(fc.nat(limitEdits.length - 1), fc.constantFrom(-1, 0, 1));
  const limits = edits.map(([i, d]) => {
    const e = limitEdits[i] ?? limitEdits[0];
    const o = structuredClone(base);
    if (!o['metadata'] || typeof o['metadata'] !== 'object') o['metadata'] = {};
    e?.edit(o, (e?.at ?? 0) + d);
    return { mutation: `limit:${e?.what}${d < 0 ? '-1' : d > 0 ? '+1' : ''}`, body: json(o) };
  });
  const arbs: fc.Arbitrary<Body>[] = [
    fc.constant({ mutation: 'valid', body: json(base) }),
    fc.tuple(fc.nat(), anyJson).map(([i, v]) => {
      const p = pick(paths, i) ?? ['metadata'];
      const body = json(setAt(structuredClone(base), p, v));
      return { mutation: `swap-type:${p.join('.')}`, body };
    }),
    fc.nat().map((i) => {
      const p = pick(paths, i) ?? ['metadata'];
      const body = json(setAt(structuredClone(base), p, undefined));
      return { mutation: `drop:${p.join('.')}`, body };
    }),
    fc.tuple(fc.nat(), anyJson).map(([i, v]) => {
      const objects = [[], ...paths].filter((p) => {
        const at = p.reduce<Json>((o, k) => (o as Record<string | number, Json>)[k], base);
        if (typeof at !== 'object' || at === null || Array.isArray(at)) return false;
        return Object.keys(at).length > 0;
      });
      const p = pick(objects, i) ?? [];
      return { mutation: `duplicate:${p.join('.')}`, body: utf8(withDuplicateKey(base, p, v)) };
    }),
    hostileMeta.map((m) => {
      const o = structuredClone(base);
      o['metadata'] = { ...(o['metadata'] as Record<string, Json>), ...m };
      return { mutation: `metadata:${Object.keys(m).join(',')}`, body: json(o) };
    }),
    limits,
    // Deep in an unknown field, and deep in a free-form one (fieldsV1 is kept as it is).
    fc
      .tuple(
        fc.constantFrom(64, 1000, 10_000, 100_000),
        fc.constantFrom<'array' | 'object'>('array', 'object')
      )
      .map(([depth, kind]) => {
        const text = JSON.stringify({ ...base, deep: '@@' });
        const body = utf8(text.replace('"@@"', deepJsonText(depth, kind)));
        return { mutation: `deep:${kind}:${depth}`, body };
      }),
    fc.constantFrom(200, 256, 257, 700, 5000).map((depth) => {
      const entry = { manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: '@@' };
      const meta = { ...(base['metadata'] as Record<string, Json>), managedFields: [entry] };
      const text = JSON.stringify({ ...base, metadata: meta });
      return {
        mutation: `deep:fieldsV1:${depth}`,
        body: utf8(text.replace('"@@"', deepJsonText(depth, 'object'))),
      };
    }),
    fc.tuple(fc.nat(), fc.constantFrom(...invalidUtf8)).map(([i, bad]) => {
      const text = Buffer.from(JSON.stringify(base));
      const quotes = [...text.keys()].filter((k) => text[k] === 0x22);
      const at = (pick(quotes, i) ?? 0) + 1;
      const body = Buffer.concat([text.subarray(0, at), Buffer.from(bad), text.subarray(at)]);
      return { mutation: `invalid-utf8:${Buffer.from(bad).toString('hex')}`, body };
    }),
    fc.nat().map((i) => {
      const text = json(base);
      return { mutation: 'truncated', body: text.subarray(0, i % Math.max(1, text.length)) };
    }),
    fc.uint8Array({ maxLength: 200 }).map((b) => ({ mutation: 'garbage', body: b })),
  ];
  if (allowBinary) {
    arbs.push(
      fc.constant({ mutation: 'yaml:valid', contentType: yamlType, body: utf8(toYaml(base)) }),
      fc.constantFrom(3, 6, 9).map((levels) => {
        const head = `apiVersion: ${String(base['apiVersion'])}\nkind: ${String(base['kind'])}\n`;
        const body = utf8(`${head}${yamlAliasBomb(levels)}\n`);
        return { mutation: `yaml:alias-bomb:${levels}`, contentType: yamlType, body };
      }),
      fc.nat().map((i) => {
        const text = toYaml(base);
        const body = utf8(text.slice(0, i % text.length));
        return { mutation: 'yaml:truncated', contentType: yamlType, body };
      })
    );
    if (canEncode(base)) {
      const envelope = encodeEnvelope(base);
      arbs.push(
        fc.constant({ mutation: 'protobuf:valid', contentType: protobufType, body: envelope }),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 8 }).map((flips) => {
          const b = Buffer.from(envelope);
          for (const [i, v] of flips) b[4 + (i % Math.max(1, b.length - 4))] = v;
          return { mutation: 'protobuf:flipped', contentType: protobufType, body: b };
        }),
        fc.nat().map((i) => ({
          mutation: 'protobuf:truncated',
          contentType: protobufType,
          body: envelope.subarray(0, i % envelope.length),
        })),
        fc.uint8Array({ maxLength: 300 }).map((b) => ({
          mutation: 'protobuf:random-payload',
          contentType: protobufType,
          body: Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), b]),
        }))
      );
    }
  }
  // Bodies of megabytes (the limits) cost time to make and send: a quarter as often as others.
  const weighted = arbs.map((arbitrary) => ({ arbitrary, weight: arbitrary === limits ? 1 : 4 }));
  return fc.oneof(...weighted);
}

/** JSON patch operations over the object's paths, a few or very many. */
function jsonPatchBodies(base: Record<string, Json>): fc.Arbitrary<Body> {
  const escape = (k: string | number): string => String(k).replace(/~/g, '~0').replace(/\//g, '~1');
  const pointers = ['', ...pathsOf(base).map((p) => `/${p.map(escape).join('/')}`)];
  const op = fc.record(
    {
      op: fc.oneof(
        fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
        hostileString
      ),
      path: fc.oneof(
        fc.nat().map((i) => pick(pointers, i) ?? ''),
        hostileString,
        anyJson
      ),
      from: fc.nat().map((i) => pick(pointers, i) ?? ''),
      value: anyJson,
    },
    { requiredKeys: ['op', 'path'] }
  );
  return fc.oneof(
    {
      arbitrary: fc
        .array(op, { maxLength: 5 })
        .map((ops) => ({ mutation: `json-patch:${ops.length}`, body: json(ops) })),
      weight: 8,
    },
    fc.constantFrom(10_000, 10_001).map((n) => ({
      mutation: `json-patch:many:${n}`,
      body: json(Array(n).fill({ op: 'test', path: '/kind', value: base['kind'] })),
    })),
    anyJson.map((v) => ({ mutation: 'json-patch:not-a-list', body: json(v) })),
    fc.constantFrom(3, 40).map((n) => ({
      mutation: `json-patch:copy-bomb:${n}`,
      body: json([
        { op: 'add', path: '/metadata/annotations', value: { a: 'x'.repeat(1000) } },
        ...Array.from({ length: n }, (_, i) => ({
          op: 'copy',
          from: '/metadata/annotations',
          path: `/metadata/annotations/c${i}`,
        })),
      ]),
    }))
  );
}

/** One request: a target kind, a verb and a body made for it. */
export function fuzzCase(targets: readonly FuzzTarget[]): fc.Arbitrary<FuzzCase> {
  const verbs: FuzzVerb[] = [
    'create',
    'update',
    'update-status',
    'patch-merge',
    'patch-json',
    'patch-strategic',
    'apply',
    'delete',
  ];
  return fc
    .record({
      target: fc.nat(targets.length - 1),
      verb: fc.constantFrom(...verbs),
      suffix: fc.stringMatching(/^[a-z0-9]{8}$/),
    })
    .chain(({ target, verb, suffix }) => {
      const t = targets[target] as FuzzTarget;
      const name = nameFor(
        t,
        verb === 'create' ? `fz-${suffix}` : verb === 'delete' ? `fz-none-${suffix}` : victimName
      );
      const obj = validObject(t, name) as Record<string, Json>;
      let bodies: fc.Arbitrary<Body>;
      let contentType = 'application/json';
      switch (verb) {
        case 'create':
        case 'update':
        case 'update-status':
          bodies = jsonBodies(obj, true);
          break;
        case 'patch-merge':
        case 'patch-strategic':
          contentType =
            verb === 'patch-merge'
              ? 'application/merge-patch+json'
              : 'application/strategic-merge-patch+json';
          bodies = jsonBodies(
            {
              metadata: { labels: { fuzz: 'yes' } },
              ...(t.def.kind === 'ConfigMap' ? { data: { k: 'v' } } : {}),
            },
            false
          );
          break;
        case 'patch-json':
          contentType = 'application/json-patch+json';
          bodies = jsonPatchBodies(obj);
          break;
        case 'apply':
          contentType = 'application/apply-patch+yaml';
          bodies = jsonBodies(obj, false);
          break;
        case 'delete':
          bodies = fc.oneof(
            fc.constant({
              mutation: 'delete:options',
              body: json({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 }),
            }),
            jsonBodies(
              { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
              false
            )
          );
          break;
      }
      return bodies.map((b) => ({
        target,
        verb,
        mutation: b.mutation,
        contentType: b.contentType ?? contentType,
        body: b.body,
        name,
      }));
    });
}

/** A short, printable description of a case (for reports of failing cases). */
export function describeCase(c: FuzzCase, targets: readonly FuzzTarget[]): string {
  const t = targets[c.target];
  const text = Buffer.from(c.body).toString('utf8');
  const preview = text.length > 400 ? `${text.slice(0, 400)}… (${c.body.length} bytes)` : text;
  const what = `${c.verb} ${t?.def.kind ?? '?'} ${c.name} [${c.mutation}] ${c.contentType}`;
  return `${what}: ${JSON.stringify(preview)}`;
}
