// Tables of ResourceQuota and LimitRange as upstream's printers (printResourceQuota: Name, Age,
// Request, Limit; LimitRange: Name, Created At).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects as realisticQuotaObjects } from '../testdata/index.js';
import { builtinSchemaModel } from './schema-model.js';
import { toTable } from './to-table.js';

const model = builtinSchemaModel();
const now = Date.parse('2024-05-01T12:00:00Z');
const table = (kind: string) =>
  toTable(
    model.kind({ group: '', version: 'v1', kind })?.message,
    [realisticQuotaObjects[`v1/${kind}`]!],
    {
      apiVersion: 'meta.orch.io/v1',
      includeObject: 'None',
      now,
    }
  );

test('ResourceQuota rows: used/hard per resource, limits.* in Limit, the rest in Request', () => {
  const t = table('ResourceQuota');
  assert.deepEqual(
    t.columnDefinitions.map((c) => c.name),
    ['Name', 'Age', 'Request', 'Limit']
  );
  assert.deepEqual(t.rows[0]!.cells, [
    'compute',
    '120m',
    'count/deployments.apps: 1/5, pods: 3/10, requests.cpu: 1500m/4',
    'limits.memory: 3Gi/8Gi',
  ]);
});

test('LimitRange rows: Name and Created At', () => {
  const t = table('LimitRange');
  assert.deepEqual(
    t.columnDefinitions.map((c) => c.name),
    ['Name', 'Created At']
  );
  assert.deepEqual(t.rows[0]!.cells, ['limits', '2024-05-01T10:00:00Z']);
});
