// merge.Updater against the spec's field ownership rules (numbered as in "Field ownership
// rules (server-side apply)") that the library decides, the merge-strategy markers with two
// managers, and the topology-change paragraph. Rules 1, 2, 7, 8, 10 and 11 are the API
// server's (request checks, permissions, managedFields resets, client-side apply migration).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue, ManagedFields, Set as FieldSetType } from '../fieldpath/index.js';
import {
  Set as FieldSet,
  keyByFields,
  makePath,
  newVersionedSet,
  pathString,
  setToJSON,
} from '../fieldpath/index.js';
import { builtinSchemaModel } from '../schema-model/index.js';
import type { TypeRef, TypedValue } from '../typed/index.js';
import { ParseableType, Schema, deducedParseableType, parseableTypeFor } from '../typed/index.js';
import { ConflictsError } from './conflict.js';
import type { Converter } from './update.js';
import { Updater } from './update.js';

const deployment = parseableTypeFor(builtinSchemaModel(), {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
});
const V = 'apps/v1';

function deploy(spec: Record<string, JsonValue>, labels?: Record<string, string>): TypedValue {
  return deployment.fromUnstructured({
    apiVersion: V,
    kind: 'Deployment',
    metadata: { name: 'web', ...(labels ? { labels } : {}) },
    spec,
  });
}

const container = (name: string, image: string): JsonValue => ({ name, image });
const template = (...containers: JsonValue[]): JsonValue => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers },
});

// The fields the API server never records as owned (k8s managedfields stripmeta, a plain
// difference: metadata itself, not what is below it), filtered as the gateway will.
const stripMeta = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  makePath('metadata', 'name')
);

/** A tiny harness: the live object and its managers, changed by apply and update. */
class Cluster {
  live: TypedValue = deployment.fromUnstructured({});
  managers: ManagedFields = new Map();
  readonly updater: Updater;

  constructor(strip = true) {
    this.updater = new Updater({
      returnInputOnNoop: true,
      ...(strip
        ? { ignoreFilter: new Map([[V, (set: FieldSet) => set.difference(stripMeta)]]) }
        : {}),
    });
  }

  apply(manager: string, config: TypedValue, force = false): void {
    const r = this.updater.apply(this.live, config, V, this.managers, manager, force);
    this.live = r.newObject as TypedValue;
    this.managers = r.managers;
  }

  update(manager: string, next: TypedValue): void {
    const r = this.updater.update(this.live, next, V, this.managers, manager);
    this.live = r.newObject as TypedValue;
    this.managers = r.managers;
  }

  owns(manager: string, ...path: Parameters<typeof makePath>): boolean {
    return this.managers.get(manager)?.set.has(makePath(...path)) ?? false;
  }

  spec(): Record<string, JsonValue> {
    return (this.live.value as { spec: Record<string, JsonValue> }).spec;
  }
}

const paths = (s: FieldSetType | undefined): string[] => (s ? s.paths().map(pathString) : []);

function conflictsOf(f: () => void): string[] {
  try {
    f();
  } catch (err) {
    if (err instanceof ConflictsError)
      return err.conflicts.map((c) => `${c.manager} ${pathString(c.path)}`);
    throw err;
  }
  assert.fail('expected conflicts');
}

test('rule 3: an applied field that differs from another manager’s value conflicts', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2 }));
  const before = c.live;
  assert.deepEqual(
    conflictsOf(() => c.apply('bob', deploy({ replicas: 3 }))),
    ['alice .spec.replicas']
  );
  assert.equal(c.live, before, 'nothing changed');
  try {
    c.apply('bob', deploy({ replicas: 3 }));
  } catch (err) {
    assert.equal((err as Error).message, 'conflict with "alice": .spec.replicas');
  }
});

test('rule 3: update operations do not fail on conflict, they take ownership', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2, paused: true }));
  c.update('hpa', c.live.merge(deploy({ replicas: 5 })));
  assert.equal(c.spec()['replicas'], 5);
  assert.ok(c.owns('hpa', 'spec', 'replicas'));
  assert.ok(!c.owns('alice', 'spec', 'replicas'), 'the applier lost the field');
  assert.ok(c.owns('alice', 'spec', 'paused'));
  assert.equal(c.managers.get('hpa')?.applied, false);
  // The applier now conflicts with the updater.
  assert.deepEqual(
    conflictsOf(() => c.apply('alice', deploy({ replicas: 2, paused: true }))),
    ['hpa .spec.replicas']
  );
});

test('rule 4: force=true moves ownership and overwrites the value', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2, paused: true }));
  c.apply('bob', deploy({ replicas: 3 }), true);
  assert.equal(c.spec()['replicas'], 3);
  assert.ok(c.owns('bob', 'spec', 'replicas'));
  assert.ok(!c.owns('alice', 'spec', 'replicas'));
  assert.ok(c.owns('alice', 'spec', 'paused'), 'the other fields stay with their owner');
});

test('rule 4: dropping the field from the intent keeps the value and gives up ownership', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2 }));
  c.apply('bob', deploy({ replicas: 2, paused: true }));
  c.apply('bob', deploy({ paused: true }));
  assert.equal(c.spec()['replicas'], 2);
  assert.ok(!c.owns('bob', 'spec', 'replicas'));
  assert.ok(c.owns('alice', 'spec', 'replicas'));
});

test('rule 4 and 5: the same value is shared; a later change by either sharer conflicts', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2 }));
  c.apply('bob', deploy({ replicas: 2 }));
  assert.ok(c.owns('alice', 'spec', 'replicas') && c.owns('bob', 'spec', 'replicas'));
  assert.deepEqual(
    conflictsOf(() => c.apply('bob', deploy({ replicas: 4 }))),
    ['alice .spec.replicas']
  );
  assert.deepEqual(
    conflictsOf(() => c.apply('alice', deploy({ replicas: 4 }))),
    ['bob .spec.replicas']
  );
});

test('rule 6: a field dropped from the intent is deleted when no other manager owns it', () => {
  const c = new Cluster();
  c.apply(
    'alice',
    deploy(
      { replicas: 2, paused: true, template: template(container('a', 'x')) },
      { app: 'web', tier: 'fe' }
    )
  );
  c.apply(
    'alice',
    deploy({ replicas: 2, template: template(container('a', 'x')) }, { app: 'web' })
  );
  assert.equal(c.spec()['paused'], undefined);
  assert.deepEqual((c.live.value as { metadata: JsonValue }).metadata, {
    name: 'web',
    labels: { app: 'web' },
  });
  assert.ok(!c.owns('alice', 'spec', 'paused'));
});

test('rule 6: a dropped field another manager owns stays', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2, paused: true }));
  c.update('ops', c.live.merge(deploy({ paused: false })));
  c.apply('alice', deploy({ replicas: 2 }));
  assert.equal(c.spec()['paused'], false);
  assert.ok(c.owns('ops', 'spec', 'paused'));
});

test('rule 6: list items the applier no longer lists are removed when no other applier owns them', () => {
  const c = new Cluster();
  // kubectl apply run twice with an edited manifest that drops a label and a container.
  c.apply(
    'kubectl',
    deploy(
      { template: template(container('a', 'x'), container('b', 'y')) },
      { app: 'web', tier: 'fe' }
    )
  );
  c.apply('kubectl', deploy({ template: template(container('a', 'x')) }, { app: 'web' }));
  const t = c.spec()['template'] as { spec: { containers: JsonValue[] } };
  assert.deepEqual(t.spec.containers, [{ name: 'a', image: 'x' }]);
  assert.ok(!c.owns('kubectl', 'spec', 'template', 'spec', 'containers', keyByFields('name', 'b')));
});

test('list-type map: two appliers each own one container; an item another applier owns stays', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ template: template(container('a', 'x')) }));
  c.apply('bob', deploy({ template: template(container('b', 'y')) }));
  const containers = (): JsonValue =>
    (c.spec()['template'] as { spec: { containers: JsonValue } }).spec.containers;
  assert.deepEqual(containers(), [
    { name: 'a', image: 'x' },
    { name: 'b', image: 'y' },
  ]);
  const a = keyByFields('name', 'a');
  const b = keyByFields('name', 'b');
  assert.ok(c.owns('alice', 'spec', 'template', 'spec', 'containers', a, 'image'));
  assert.ok(!c.owns('alice', 'spec', 'template', 'spec', 'containers', b));
  assert.ok(c.owns('bob', 'spec', 'template', 'spec', 'containers', b, 'image'));
  // Changing the other's container conflicts; one's own does not.
  assert.deepEqual(
    conflictsOf(() =>
      c.apply('alice', deploy({ template: template(container('a', 'x'), container('b', 'z')) }))
    ),
    ['bob .spec.template.spec.containers[name="b"].image']
  );
  c.apply('alice', deploy({ template: template(container('a', 'x2')) }));
  // Alice lists container b with bob's value: shared; she then drops it and bob keeps it.
  c.apply('alice', deploy({ template: template(container('a', 'x2'), container('b', 'y')) }));
  c.apply('alice', deploy({ template: template(container('a', 'x2')) }));
  assert.deepEqual(containers(), [
    { name: 'a', image: 'x2' },
    { name: 'b', image: 'y' },
  ]);
  // Bob drops his container: nobody else owns it, it goes.
  c.apply(
    'bob',
    deployment.fromUnstructured({ apiVersion: V, kind: 'Deployment', metadata: { name: 'web' } })
  );
  assert.deepEqual(containers(), [{ name: 'a', image: 'x2' }]);
  assert.equal(c.managers.has('bob'), false, 'bob owns nothing and is gone');
});

test('rule 9: ownership hand-over through a temporary manager that disappears once it owns nothing', () => {
  const c = new Cluster();
  c.apply('user', deploy({ replicas: 2, paused: true }));
  // The hand-over manager applies the single field with the current value: shared.
  c.apply('handover-to-hpa', deploy({ replicas: 2 }));
  // The user drops it from the intent: the value stays, owned by the hand-over manager.
  c.apply('user', deploy({ paused: true }));
  assert.equal(c.spec()['replicas'], 2);
  assert.ok(!c.owns('user', 'spec', 'replicas'));
  // The new owner (an updater) changes it: the temporary manager owns nothing and is gone.
  c.update('hpa', c.live.merge(deploy({ replicas: 7 })));
  assert.equal(c.managers.has('handover-to-hpa'), false);
  assert.ok(c.owns('hpa', 'spec', 'replicas'));
});

test('apply: the applier owns exactly what it applies; an unchanged re-apply changes nothing', () => {
  const c = new Cluster(false);
  c.apply('kubectl', deploy({ replicas: 1, template: template(container('a', 'x')) }));
  assert.equal(
    setToJSON(c.managers.get('kubectl')?.set as never),
    `{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:name":{}},"f:spec":{"f:replicas":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}`
  );
  assert.equal(c.managers.get('kubectl')?.applied, true);
  const strict = new Updater();
  const again = strict.apply(
    c.live,
    deploy({ replicas: 1, template: template(container('a', 'x')) }),
    V,
    c.managers,
    'kubectl',
    false
  );
  assert.equal(again.newObject, undefined, 'no-op');
});

test('update: the manager owns what it changed, merged with what it owned', () => {
  const c = new Cluster();
  c.update('ctl', deploy({ replicas: 1 }));
  c.update('ctl', c.live.merge(deploy({ paused: true })));
  const set = c.managers.get('ctl')?.set;
  assert.ok(set?.has(makePath('spec', 'replicas')) && set.has(makePath('spec', 'paused')));
  // A change that removes a field takes it out of every set.
  c.update(
    'other',
    deployment.fromUnstructured({
      apiVersion: V,
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 1 },
    })
  );
  assert.ok(!c.owns('ctl', 'spec', 'paused'));
});

test('topology change: a set recorded as granular now atomic, later changes conflict', () => {
  const str: TypeRef = { inlined: { scalar: 'string' } };
  const typeWith = (rel: 'separable' | 'atomic'): ParseableType => {
    const schema = new Schema([
      [
        'root',
        {
          map: {
            fields: [
              {
                name: 'sel',
                type: {
                  inlined: { map: { fields: [], elementType: str, elementRelationship: rel } },
                },
              },
            ],
            elementRelationship: 'separable',
          },
        },
      ],
    ]);
    return new ParseableType(schema, { namedType: 'root' });
  };
  const granular = typeWith('separable');
  const updater = new Updater({ returnInputOnNoop: true });
  // alice owned one key while the map was granular.
  const first = updater.apply(
    granular.fromUnstructured({}),
    granular.fromUnstructured({ sel: { a: '1' } }),
    'v1',
    new Map(),
    'alice',
    false
  );
  assert.ok(first.managers.get('alice')?.set.has(makePath('sel', 'a')));
  // The map is atomic now: alice owns the whole map, so bob adding a key conflicts.
  const atomic = typeWith('atomic');
  const live = atomic.fromUnstructured(first.newObject?.value as JsonValue);
  assert.deepEqual(
    conflictsOf(() =>
      updater.apply(
        live,
        atomic.fromUnstructured({ sel: { a: '1', b: '2' } }),
        'v1',
        first.managers,
        'bob',
        false
      )
    ),
    ['alice .sel']
  );
  // From atomic back to granular: alice keeps the top-level field, bob's keys do not conflict.
  const back = updater.apply(
    live,
    atomic.fromUnstructured({ sel: { a: '1' } }),
    'v1',
    first.managers,
    'alice',
    false
  );
  assert.ok(back.managers.get('alice')?.set.has(makePath('sel')));
  const regranular = granular.fromUnstructured(back.newObject?.value as JsonValue);
  const bob = updater.apply(
    regranular,
    granular.fromUnstructured({ sel: { b: '2' } }),
    'v1',
    back.managers,
    'bob',
    false
  );
  assert.deepEqual(bob.newObject?.value, { sel: { a: '1', b: '2' } });
  assert.ok(bob.managers.get('alice')?.set.has(makePath('sel')));
});

test('conflicts list every field of every manager, grouped by manager in the message', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2 }));
  c.apply('bob', deploy({ paused: true }));
  try {
    c.apply('carol', deploy({ replicas: 3, paused: false }));
    assert.fail('expected conflicts');
  } catch (err) {
    assert.ok(err instanceof ConflictsError);
    assert.deepEqual(
      err.conflicts.map((x) => [x.manager, pathString(x.path)]),
      [
        ['alice', '.spec.replicas'],
        ['bob', '.spec.paused'],
      ]
    );
    assert.equal(
      err.message,
      'conflicts with "alice":\n- .spec.replicas\nconflicts with "bob":\n- .spec.paused'
    );
  }
});

test('applying null: the applier owns the field, the merged value is null (the API server drops it)', () => {
  const c = new Cluster();
  c.apply('alice', deploy({ replicas: 2, paused: true }));
  c.apply('alice', deploy({ replicas: 2, paused: null }));
  assert.equal(c.spec()['paused'], null);
  assert.ok(c.owns('alice', 'spec', 'paused'));
  // Omitting it instead removes it (rule 6).
  c.apply('alice', deploy({ replicas: 2 }));
  assert.ok(!('paused' in c.spec()));
});

test('kinds without a schema: keys behave as fields, lists are atomic and owned whole', () => {
  const widget = deducedParseableType();
  const updater = new Updater();
  const cfg = (spec: JsonValue): TypedValue =>
    widget.fromUnstructured({ apiVersion: 'example.io/v1', kind: 'Widget', spec });
  const a = updater.apply(
    widget.fromUnstructured({}),
    cfg({ size: 1, items: ['x'] }),
    'example.io/v1',
    new Map(),
    'alice',
    false
  );
  assert.ok(a.managers.get('alice')?.set.has(makePath('spec', 'items')));
  // bob adds an item: the list is atomic, so that is a change of alice's whole list.
  assert.deepEqual(
    conflictsOf(() =>
      updater.apply(
        a.newObject as TypedValue,
        cfg({ items: ['x', 'y'] }),
        'example.io/v1',
        a.managers,
        'bob',
        false
      )
    ),
    ['alice .spec.items']
  );
  // bob sets a key of his own: no conflict, both own their keys.
  const b = updater.apply(
    a.newObject as TypedValue,
    cfg({ color: 'red' }),
    'example.io/v1',
    a.managers,
    'bob',
    false
  );
  assert.deepEqual((b.newObject?.value as { spec: JsonValue }).spec, {
    size: 1,
    items: ['x'],
    color: 'red',
  });
});

test('managers recorded in other API versions: conflicts, forcing and pruning go through the converter', () => {
  // v1 calls the field replicas, v2 calls it size; v0 no longer exists.
  const num: TypeRef = { inlined: { scalar: 'numeric' } };
  const str: TypeRef = { inlined: { scalar: 'string' } };
  const schema = new Schema([
    [
      'v1',
      {
        map: {
          fields: [
            { name: 'replicas', type: num },
            { name: 'name', type: str },
          ],
          elementRelationship: 'separable',
        },
      },
    ],
    [
      'v2',
      {
        map: {
          fields: [
            { name: 'size', type: num },
            { name: 'name', type: str },
          ],
          elementRelationship: 'separable',
        },
      },
    ],
  ]);
  const typeOf = (v: string): ParseableType => new ParseableType(schema, { namedType: v });
  class MissingVersion extends Error {}
  const rename = (o: JsonValue, from: string, to: string): JsonValue => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(o)) out[k === from ? to : k] = v;
    return out;
  };
  const converter: Converter = {
    convert(object, version) {
      if (version !== 'v1' && version !== 'v2') throw new MissingVersion(version);
      const from = object.typeRef.namedType;
      if (from === version) return object;
      const value =
        version === 'v2'
          ? rename(object.value, 'replicas', 'size')
          : rename(object.value, 'size', 'replicas');
      return typeOf(version).fromUnstructured(value);
    },
    isMissingVersionError: (err) => err instanceof MissingVersion,
  };
  const updater = new Updater({ converter });
  const v1 = typeOf('v1');
  const v2 = typeOf('v2');

  const alice = updater.apply(
    v1.fromUnstructured(null),
    v1.fromUnstructured({ replicas: 1, name: 'a' }),
    'v1',
    new Map(),
    'alice',
    false
  );
  const live1 = alice.newObject as TypedValue;
  // bob, in v2, changes what alice owns in v1: the conflict names alice's v1 path.
  const live2 = converter.convert(live1, 'v2');
  assert.deepEqual(
    conflictsOf(() =>
      updater.apply(live2, v2.fromUnstructured({ size: 2 }), 'v2', alice.managers, 'bob', false)
    ),
    ['alice .replicas']
  );
  const bob = updater.apply(
    live2,
    v2.fromUnstructured({ size: 2 }),
    'v2',
    alice.managers,
    'bob',
    true
  );
  assert.deepEqual(bob.newObject?.value, { size: 2, name: 'a' });
  assert.deepEqual(paths(bob.managers.get('alice')?.set), ['.name']);
  assert.equal(
    bob.managers.get('alice')?.apiVersion,
    'v1',
    'an entry keeps the version it was written in'
  );
  assert.deepEqual(paths(bob.managers.get('bob')?.set), ['.size']);

  // alice applies again in v2 without name: her v1 set is pruned through the converter.
  const again = updater.apply(
    bob.newObject as TypedValue,
    v2.fromUnstructured({}),
    'v2',
    bob.managers,
    'alice',
    false
  );
  assert.deepEqual(again.newObject?.value, { size: 2 });

  // A manager recorded in a version that no longer exists is dropped.
  const withOld = new Map(bob.managers);
  withOld.set('old', newVersionedSet(FieldSet.of(makePath('count')), 'v0', false));
  const upd = updater.update(
    bob.newObject as TypedValue,
    v2.fromUnstructured({ size: 3, name: 'a' }),
    'v2',
    withOld,
    'ctl'
  );
  assert.equal(upd.managers.has('old'), false);
  assert.deepEqual(paths(upd.managers.get('ctl')?.set), ['.size']);
  assert.equal(upd.managers.has('bob'), false, 'bob lost his only field to the update');
});
