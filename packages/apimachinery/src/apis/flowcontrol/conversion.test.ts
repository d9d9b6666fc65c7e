// FlowSchema and PriorityLevelConfiguration v1beta3 ↔ v1 through the registry's
// builtinConversions, as the Store uses them, and v1beta3's defaulting of
// nominalConcurrencyShares (upstream pkg/apis/flowcontrol/v1beta3 conversion.go, defaults.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '../../testdata/index.js';
import { builtinConversions } from '../index.js';
import {
  defaultV1beta3PriorityLevel,
  preserveZeroConcurrencySharesAnnotation,
} from './conversion.js';

type Json = Record<string, unknown>;

const group = 'flowcontrol.apiserver.orch.io';
const v1 = { group, version: 'v1' };
const v1beta3 = { group, version: 'v1beta3' };
const keep = preserveZeroConcurrencySharesAnnotation;
const plc = (
  version: string,
  shares: number | undefined,
  annotations?: Record<string, string>
) => ({
  apiVersion: `${group}/${version}`,
  kind: 'PriorityLevelConfiguration',
  metadata: { name: 'p', ...(annotations ? { annotations } : {}) },
  spec: {
    type: 'Limited',
    limited: {
      ...(shares === undefined ? {} : { nominalConcurrencyShares: shares }),
      limitResponse: { type: 'Reject' },
    },
  },
});

test('every realistic FlowSchema and PriorityLevelConfiguration round-trips v1 → v1beta3 → v1', () => {
  for (const kind of ['FlowSchema', 'PriorityLevelConfiguration']) {
    const stored = realisticObjects[`${group}/v1/${kind}`] as Json;
    const before = structuredClone(stored);
    const served = builtinConversions.convert(stored, v1beta3);
    assert.equal(served['apiVersion'], `${group}/v1beta3`);
    assert.deepEqual(builtinConversions.convert(served, v1), stored, kind);
    assert.deepEqual(stored, before, 'the input is left as it was');
  }
});

test('rows: nominalConcurrencyShares and the annotation that keeps a zero, each way', () => {
  const rows: [string, Json, { group: string; version: string }, Json][] = [
    [
      'v1 zero → v1beta3 with the annotation',
      plc('v1', 0),
      v1beta3,
      plc('v1beta3', 0, { [keep]: '' }),
    ],
    ['v1 non-zero → v1beta3 without it', plc('v1', 5), v1beta3, plc('v1beta3', 5)],
    [
      'v1 zero with the annotation already set → kept as set',
      plc('v1', 0, { [keep]: 'true' }),
      v1beta3,
      plc('v1beta3', 0, { [keep]: 'true' }),
    ],
    [
      'v1beta3 with the annotation → v1 without it',
      plc('v1beta3', 0, { [keep]: '' }),
      v1,
      plc('v1', 0),
    ],
    [
      'v1beta3 → v1 keeps the other annotations',
      plc('v1beta3', 7, { [keep]: '', a: 'b' }),
      v1,
      plc('v1', 7, { a: 'b' }),
    ],
  ];
  for (const [name, input, to, want] of rows)
    assert.deepEqual(builtinConversions.convert(input, to), want, name);
});

test('v1beta3 defaulting: unset or zero shares are 30 unless the annotation keeps the zero', () => {
  const rows: [string, Json, number][] = [
    ['unset', plc('v1beta3', undefined), 30],
    ['zero', plc('v1beta3', 0), 30],
    ['zero kept', plc('v1beta3', 0, { [keep]: '' }), 0],
    ['set', plc('v1beta3', 12), 12],
  ];
  for (const [name, obj, want] of rows) {
    defaultV1beta3PriorityLevel(obj);
    const limited = (obj['spec'] as { limited: Json }).limited;
    assert.equal(limited['nominalConcurrencyShares'], want, name);
  }
});
