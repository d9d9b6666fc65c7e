import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceColumnDefinition } from '../types.js';
import { customResourceTable } from './custom-resource-table.js';
import { JSONPathError, evaluateJSONPath, parseJSONPath } from './json-path.js';

const now = Date.parse('2026-01-10T12:00:00Z');

const obj = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: {
    name: 'one',
    namespace: 'default',
    creationTimestamp: '2026-01-08T12:00:00Z',
    labels: { 'app.kubernetes.io/name': 'web', tier: 'front' },
  },
  spec: {
    cronSpec: '*/5 * * * *',
    replicas: 3,
    ratio: 0.25,
    tiny: 0.00001,
    big: 3.5e21,
    suspend: false,
    image: null,
    selector: { tier: 'front', app: 'web' },
    args: ['a', 'b', 'c', 'd'],
    html: '<b>&</b>',
    'dotted.key': 'yes',
  },
  status: {
    lastScheduleTime: '2026-01-10T11:55:00Z',
    badTime: 'yesterday',
    conditions: [
      { type: 'Scheduled', status: 'True', count: 1 },
      { type: 'Ready', status: 'False', count: 5 },
    ],
  },
};

describe('JSONPath of printer columns', () => {
  const rows: { path: string; want: unknown[] }[] = [
    { path: '.spec.replicas', want: [3] },
    { path: '.spec.missing', want: [] },
    { path: '.spec.replicas.deeper', want: [] },
    { path: '.', want: [obj] },
    { path: ".metadata.labels['app.kubernetes.io/name']", want: ['web'] },
    { path: '.metadata.labels.app\\.kubernetes\\.io/name', want: ['web'] },
    { path: ".spec['dotted.key']", want: ['yes'] },
    { path: ".metadata['name','namespace']", want: ['one', 'default'] },
    { path: '.spec.args[0]', want: ['a'] },
    { path: '.spec.args[-1]', want: ['d'] },
    { path: '.spec.args[9]', want: [] },
    { path: '.spec.args[1:3]', want: ['b', 'c'] },
    { path: '.spec.args[::2]', want: ['a', 'c'] },
    { path: '.spec.args[-2:]', want: ['c', 'd'] },
    { path: '.spec.args[0,2]', want: ['a', 'c'] },
    { path: '.spec.args[*]', want: ['a', 'b', 'c', 'd'] },
    { path: '.spec.selector.*', want: ['front', 'web'] },
    { path: '.status.conditions[*].type', want: ['Scheduled', 'Ready'] },
    { path: '.status.conditions[?(@.type=="Ready")].status', want: ['False'] },
    { path: ".status.conditions[?(@.type == 'Ready')].status", want: ['False'] },
    { path: '.status.conditions[?(@.type!="Ready")].type', want: ['Scheduled'] },
    { path: '.status.conditions[?(@.count>1)].type', want: ['Ready'] },
    { path: '.status.conditions[?(@.count<=1)].type', want: ['Scheduled'] },
    { path: '.status.conditions[?(@.count>=5)].type', want: ['Ready'] },
    { path: '.status.conditions[?(@.count<5)].type', want: ['Scheduled'] },
    { path: '.status.conditions[?(@.type)].type', want: ['Scheduled', 'Ready'] },
    { path: '.status.conditions[?(@.nope)].type', want: [] },
    { path: '.status.conditions[?(@.status==@.status)].type', want: ['Scheduled', 'Ready'] },
    { path: '.status..type', want: ['Scheduled', 'Ready'] },
    { path: '..cronSpec', want: ['*/5 * * * *'] },
  ];
  for (const row of rows)
    it(row.path, () =>
      assert.deepEqual(evaluateJSONPath(parseJSONPath(row.path), [obj]), row.want)
    );

  for (const bad of ['.spec.args[', '.spec.args[a]', '.spec[?(@.x=="a"]', 'spec', '.a[1:2:3:4]'])
    it(`refuses ${bad}`, () => assert.throws(() => parseJSONPath(bad), JSONPathError));
});

describe('customResourceTable', () => {
  const col = (
    name: string,
    type: string,
    jsonPath: string,
    extra: Partial<CustomResourceColumnDefinition> = {}
  ): CustomResourceColumnDefinition => ({ name, type, jsonPath, ...extra });

  const cellRows: { column: CustomResourceColumnDefinition; want: unknown }[] = [
    { column: col('Spec', 'string', '.spec.cronSpec'), want: '*/5 * * * *' },
    { column: col('Missing', 'string', '.spec.missing'), want: null },
    { column: col('Null', 'string', '.spec.image'), want: '<no value>' },
    { column: col('IntAsString', 'string', '.spec.replicas'), want: '3' },
    { column: col('FloatAsString', 'string', '.spec.ratio'), want: '0.25' },
    { column: col('TinyAsString', 'string', '.spec.tiny'), want: '1e-05' },
    { column: col('BigAsString', 'string', '.spec.big'), want: '3.5e+21' },
    { column: col('BoolAsString', 'string', '.spec.suspend'), want: 'false' },
    {
      column: col('MapAsString', 'string', '.spec.selector'),
      want: '{"app":"web","tier":"front"}',
    },
    { column: col('ListAsString', 'string', '.spec.args'), want: '["a","b","c","d"]' },
    { column: col('FirstOfMany', 'string', '.status.conditions[*].type'), want: 'Scheduled' },
    {
      column: col('Ready', 'string', '.status.conditions[?(@.type=="Ready")].status'),
      want: 'False',
    },
    { column: col('Replicas', 'integer', '.spec.replicas'), want: 3 },
    { column: col('Truncated', 'integer', '.spec.ratio'), want: 0 },
    { column: col('NotAnInteger', 'integer', '.spec.cronSpec'), want: null },
    { column: col('Ratio', 'number', '.spec.ratio'), want: 0.25 },
    { column: col('NotANumber', 'number', '.spec.suspend'), want: null },
    { column: col('Suspend', 'boolean', '.spec.suspend'), want: false },
    { column: col('NotABoolean', 'boolean', '.spec.replicas'), want: null },
    { column: col('Last', 'date', '.status.lastScheduleTime'), want: '5m' },
    { column: col('Created', 'date', '.metadata.creationTimestamp'), want: '2d' },
    { column: col('BadDate', 'date', '.status.badTime'), want: '<invalid>' },
    { column: col('NumberDate', 'date', '.spec.replicas'), want: null },
    { column: col('NullInteger', 'integer', '.spec.image'), want: null },
    { column: col('UnknownType', 'object', '.spec.selector'), want: null },
  ];
  for (const row of cellRows) {
    it(`${row.column.type} column ${row.column.jsonPath} → ${JSON.stringify(row.want)}`, () => {
      const t = customResourceTable([row.column], [obj], {
        apiVersion: 'meta.orch.io/v1',
        includeObject: 'None',
        now,
      });
      assert.deepEqual(t.rows[0]?.cells, ['one', row.want]);
    });
  }

  it('a string column prints JSON as Go does: keys sorted, <, > and & escaped', () => {
    const t = customResourceTable(
      [col('Html', 'string', '.spec.selector')],
      [{ metadata: { name: 'x' }, spec: { selector: { b: '<&>', a: 1 } } }],
      {
        apiVersion: 'meta.orch.io/v1',
        includeObject: 'None',
      }
    );
    assert.equal(t.rows[0]?.cells[1], '{"a":1,"b":"\\u003c\\u0026\\u003e"}');
  });

  it('column definitions: Name, then each column with type, format, priority and description (a default one naming the path)', () => {
    const t = customResourceTable(
      [
        col('Spec', 'string', '.spec.cronSpec', { description: 'The schedule.' }),
        col('Replicas', 'integer', '.spec.replicas', { format: 'int32', priority: 1 }),
      ],
      [],
      { apiVersion: 'meta.orch.io/v1', includeObject: 'None' }
    );
    assert.deepEqual(
      t.columnDefinitions.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Spec', 'string', '', 0],
        ['Replicas', 'integer', 'int32', 1],
      ]
    );
    assert.equal(t.columnDefinitions[1]?.description, 'The schedule.');
    assert.equal(
      t.columnDefinitions[2]?.description,
      'Custom resource definition column (in JSONPath format): .spec.replicas'
    );
    assert.deepEqual(t.rows, []);
  });

  it('no columns: Name and Age from creationTimestamp (upstream serveDefaultColumnsIfEmpty)', () => {
    for (const columns of [undefined, []]) {
      const t = customResourceTable(columns, [obj], {
        apiVersion: 'meta.orch.io/v1',
        includeObject: 'None',
        now,
      });
      assert.deepEqual(
        t.columnDefinitions.map((c) => [c.name, c.type]),
        [
          ['Name', 'string'],
          ['Age', 'date'],
        ]
      );
      assert.deepEqual(t.rows[0]?.cells, ['one', '2d']);
    }
  });

  it('includeObject and the list metadata, as toTable', () => {
    const listMeta = { resourceVersion: '42', continue: 'c' };
    const meta = customResourceTable(undefined, [obj], {
      apiVersion: 'meta.k8s.io/v1',
      includeObject: 'Metadata',
      listMeta,
    });
    assert.deepEqual(meta.metadata, listMeta);
    assert.equal(meta.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(meta.rows[0]?.object, {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: obj.metadata,
    });
    const whole = customResourceTable(undefined, [obj], {
      apiVersion: 'meta.orch.io/v1',
      includeObject: 'Object',
    });
    assert.equal(whole.rows[0]?.object, obj);
    const none = customResourceTable(undefined, [obj], {
      apiVersion: 'meta.orch.io/v1',
      includeObject: 'None',
    });
    assert.equal(none.rows[0]?.object, undefined);
  });

  it('a column whose path does not parse: 500, the columns cannot be served', () => {
    assert.throws(
      () =>
        customResourceTable([col('Bad', 'string', '.spec[')], [obj], {
          apiVersion: 'meta.orch.io/v1',
          includeObject: 'None',
        }),
      (err: any) => err.code === 500 && /unrecognized column definition/.test(err.message)
    );
  });
});
