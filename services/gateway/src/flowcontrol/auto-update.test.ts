// Which bootstrap objects get their spec put back (upstream's ensurer), one named row each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiObject } from '@orch/apimachinery/meta';
import { containedIn, specUpdate } from './auto-update.js';
import { autoUpdateAnnotation } from './bootstrap.js';

const obj = (spec: unknown, annotations?: Record<string, string>, generation = 1): ApiObject =>
  ({ metadata: { name: 'x', generation, ...(annotations && { annotations }) }, spec }) as ApiObject;

test('a spec is current when the bootstrap spec is contained in it (defaults added are fine)', () => {
  assert.ok(containedIn({ a: 1, b: [{ c: 2 }] }, { a: 1, b: [{ c: 2, d: 3 }], e: 4 }));
  assert.ok(!containedIn({ a: 1 }, { a: 2 }));
  assert.ok(!containedIn({ b: [1, 2] }, { b: [1] }));
});

test('spec updates', () => {
  const want = obj({ n: 30 });
  const rows: [string, ApiObject, boolean, boolean][] = [
    [
      'a mandatory object is always put back',
      obj({ n: 5 }, { [autoUpdateAnnotation]: 'false' }, 3),
      true,
      true,
    ],
    [
      'a suggested one with auto-update true',
      obj({ n: 5 }, { [autoUpdateAnnotation]: 'true' }, 3),
      false,
      true,
    ],
    [
      'a suggested one with auto-update false is left alone',
      obj({ n: 5 }, { [autoUpdateAnnotation]: 'false' }, 1),
      false,
      false,
    ],
    ['without the annotation, at generation 1', obj({ n: 5 }), false, true],
    [
      'without the annotation, changed since (generation 2)',
      obj({ n: 5 }, undefined, 2),
      false,
      false,
    ],
    [
      'a current spec is not written',
      obj({ n: 30, extra: 1 }, { [autoUpdateAnnotation]: 'true' }),
      false,
      false,
    ],
  ];
  for (const [name, stored, mandatory, written] of rows) {
    const next = specUpdate(stored, want, mandatory);
    assert.equal(next !== undefined, written, name);
    if (next) assert.deepEqual(next['spec'], { n: 30 }, name);
  }
});
