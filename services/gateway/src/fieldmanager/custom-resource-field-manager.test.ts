// Server-side apply on a custom resource: the field manager of a def with customResource merges
// by the CRD version's schema (list types, map types, preserve-unknown-fields, ObjectMeta).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinitionVersion } from '@orch/apimachinery/apiextensions';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { FieldManager, fieldManagerFor } from './field-manager.js';

const version: CustomResourceDefinitionVersion = {
  name: 'v1',
  served: true,
  storage: true,
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer' },
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name', 'protocol'],
              items: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string' },
                  protocol: { type: 'string', default: 'TCP' },
                  port: { type: 'integer' },
                },
              },
            },
            args: { type: 'array', items: { type: 'string' } },
            tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            selector: {
              type: 'object',
              'x-kubernetes-map-type': 'atomic',
              additionalProperties: { type: 'string' },
            },
            env: { type: 'object', additionalProperties: { type: 'string' } },
            extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      },
    },
  },
};

const kind = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };

function cr(spec: Record<string, unknown>, labels?: Record<string, string>): ApiObject {
  return {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'one', ...(labels ? { labels } : {}) },
    spec,
  } as ApiObject;
}

/** Applies a and then b on a fresh object; the object, or the 409 of b. */
function applyTwo(
  a: ApiObject,
  b: ApiObject,
  force = false
): { obj: ApiObject; err?: undefined } | { obj: ApiObject; err: StatusError } {
  const fm = new FieldManager(kind, '', undefined, { version });
  const first = fm.apply(undefined, a, 'alice', false);
  // A stored object has a uid: managedFields are tracked from then on.
  first.metadata.uid = 'u1';
  try {
    return { obj: fm.apply(first, b, 'bob', force) };
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return { obj: first, err };
  }
}

const specOf = (o: ApiObject): any => (o as any).spec;
const owners = (o: ApiObject): string[] =>
  ((o.metadata.managedFields ?? []) as any[]).map((e) => e.manager ?? '').sort();

describe('field manager of a custom resource', () => {
  it('list-type map: items of two appliers merge by their keys, the key defaults filling in', () => {
    const { obj, err } = applyTwo(
      cr({ ports: [{ name: 'http', port: 80 }] }),
      cr({ ports: [{ name: 'dns', protocol: 'UDP', port: 53 }] })
    );
    assert.equal(err, undefined);
    assert.deepEqual(specOf(obj).ports, [
      { name: 'http', port: 80 },
      { name: 'dns', protocol: 'UDP', port: 53 },
    ]);
    const alice = ((obj.metadata.managedFields ?? []) as any[]).find((e) => e.manager === 'alice');
    assert.ok(
      JSON.stringify(alice?.fieldsV1).includes(
        'k:{\\"name\\":\\"http\\",\\"protocol\\":\\"TCP\\"}'
      ),
      JSON.stringify(alice?.fieldsV1)
    );
  });

  it('list-type set: the values of two appliers are kept', () => {
    const { obj } = applyTwo(cr({ tags: ['a'] }), cr({ tags: ['b'] }));
    assert.deepEqual(specOf(obj).tags, ['a', 'b']);
  });

  it("a granular map keeps both appliers' keys; ObjectMeta labels too", () => {
    const { obj } = applyTwo(
      cr({ env: { A: '1' } }, { a: '1' }),
      cr({ env: { B: '2' } }, { b: '2' })
    );
    assert.deepEqual(specOf(obj).env, { A: '1', B: '2' });
    assert.deepEqual(obj.metadata.labels, { a: '1', b: '2' });
  });

  it("preserve-unknown-fields: the deduced type merges the appliers' keys", () => {
    const { obj } = applyTwo(cr({ extra: { x: { deep: 1 } } }), cr({ extra: { y: [1] } }));
    assert.deepEqual(specOf(obj).extra, { x: { deep: 1 }, y: [1] });
  });

  const atomicRows: { name: string; field: string; a: unknown; b: unknown }[] = [
    { name: 'a list without list-type (atomic)', field: 'args', a: ['x'], b: ['y'] },
    { name: 'an atomic map', field: 'selector', a: { app: 'x' }, b: { tier: 'y' } },
    { name: 'a scalar', field: 'replicas', a: 1, b: 2 },
  ];
  for (const row of atomicRows) {
    it(`${row.name}: a second applier conflicts, naming the field; force replaces it whole`, () => {
      const { err } = applyTwo(cr({ [row.field]: row.a }), cr({ [row.field]: row.b }));
      assert.ok(err, 'expected a conflict');
      assert.equal(err.code, 409);
      assert.deepEqual(
        err.status.details?.causes?.map((c) => [c.reason, c.field]),
        [['FieldManagerConflict', `.spec.${row.field}`]]
      );
      assert.match(err.status.message ?? '', /conflict with "alice"/);
      const forced = applyTwo(cr({ [row.field]: row.a }), cr({ [row.field]: row.b }), true);
      assert.equal(forced.err, undefined);
      assert.deepEqual(specOf(forced.obj)[row.field], row.b);
      assert.deepEqual(owners(forced.obj), ['bob']);
    });
  }

  it('a field the schema does not declare is refused (the typed value does not fit)', () => {
    const fm = new FieldManager(kind, '', undefined, { version });
    assert.throws(() => fm.apply(undefined, cr({ nope: 1 }), 'alice', false), /nope/);
  });

  it('fieldManagerFor: one manager per CRD version object, none shared with the schema model', () => {
    const a = fieldManagerFor(kind, '', false, { version });
    assert.equal(fieldManagerFor(kind, '', false, { version }), a);
    assert.notEqual(fieldManagerFor(kind, '', false, { version: { ...version } }), a);
    assert.notEqual(fieldManagerFor(kind, '', false), a);
  });
});
