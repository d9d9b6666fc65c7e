// x-kubernetes-validations through the API, in a suite with one gateway and the CRD
// controllers: a CRD whose default fails its rule is refused at the default's path (upstream
// defaulting.ValidateDefaults with the CEL validator), one whose rule reads an undeclared field
// of a list's items is refused at compile (upstream DeclType of list items), and custom resources
// are validated with list-type set and map semantics (upstream unstructuredSetList and
// unstructuredMapList Equal and Add).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

const group = 'rules.example.com';
const crds = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
const widgets = (name = '') => `/apis/${group}/v1/namespaces/cel/widgets${name ? `/${name}` : ''}`;

/** A CRD of kind `kind` whose spec has `spec` as its schema. */
function crdWith(plural: string, kind: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { plural, singular: kind.toLowerCase(), kind },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
        },
      ],
    },
  };
}

const ports = {
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  items: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, port: { type: 'integer' } },
  },
};

const widgetSpec = {
  type: 'object',
  properties: {
    tags: {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'string' },
      'x-kubernetes-validations': [
        { rule: 'self == oldSelf', message: 'tags are immutable (order aside)' },
      ],
    },
    ports: {
      ...ports,
      maxItems: 10,
      'x-kubernetes-validations': [
        { rule: "self.all(p, p.name.startsWith('p-'))", message: 'port names start with p-' },
        {
          rule: 'size(self + oldSelf) == size(oldSelf)',
          message: 'ports may change but not be added',
        },
      ],
    },
  },
};

const widget = (name: string, spec: Record<string, unknown>, resourceVersion?: string) => ({
  apiVersion: `${group}/v1`,
  kind: 'Widget',
  metadata: resourceVersion ? { name, resourceVersion } : { name },
  spec,
});

describe('x-kubernetes-validations when a CRD and its objects are written', () => {
  let suite: Suite;

  before(async () => {
    suite = await sharedSuite({ controllers: true });
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cel' } };
    assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', ns)).status, 201);
  });
  after(async () => {
    await suite?.stop();
  });

  it('a default that fails its rule makes the CRD invalid at the default (upstream ValidateDefaults)', async () => {
    const crd = crdWith('modes', 'Mode', {
      type: 'object',
      properties: {
        mode: {
          type: 'string',
          default: 'slow',
          'x-kubernetes-validations': [{ rule: "self in ['fast', 'faster']" }],
        },
        limits: {
          type: 'object',
          default: { low: 5, high: 1 },
          properties: { low: { type: 'integer' }, high: { type: 'integer' } },
          'x-kubernetes-validations': [
            { rule: 'self.low <= self.high', message: 'low must not exceed high' },
          ],
        },
      },
    });
    const r = await suite.request(0, 'POST', crds, crd);
    assert.equal(r.status, 422, r.text);
    const body = r.body as any;
    const at = 'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties';
    assert.equal(body.reason, 'Invalid');
    assert.deepEqual(body.details.causes.map((c: any) => [c.field, c.reason, c.message]).sort(), [
      [
        `${at}[limits].default`,
        'FieldValueInvalid',
        'Invalid value: "object": low must not exceed high',
      ],
      [
        `${at}[mode].default`,
        'FieldValueInvalid',
        `Invalid value: "slow": failed rule: self in ['fast', 'faster']`,
      ],
    ]);
    assert.equal((await suite.request(0, 'GET', `${crds}/modes.${group}`)).status, 404);

    // The same CRD with defaults that pass is accepted.
    const ok = structuredClone(crd) as any;
    const props = ok.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    props.mode.default = 'fast';
    props.limits.default = { low: 1, high: 5 };
    const created = await suite.request(0, 'POST', crds, ok);
    assert.equal(created.status, 201, created.text);
  });

  it("a rule reading an undeclared field of a list's items does not compile (typed items)", async () => {
    const crd = crdWith('typos', 'Typo', {
      type: 'object',
      properties: {
        ports: {
          ...ports,
          'x-kubernetes-validations': [{ rule: "self.all(p, p.nmae.startsWith('p-'))" }],
        },
      },
    });
    const r = await suite.request(0, 'POST', crds, crd);
    assert.equal(r.status, 422, r.text);
    assert.match(
      (r.body as any).message,
      /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.properties\[ports\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:\d+: undefined field 'nmae'/
    );
  });

  it('objects are validated with set and map list semantics', async () => {
    const crd = crdWith('widgets', 'Widget', widgetSpec);
    const r = await suite.request(0, 'POST', crds, crd);
    assert.equal(r.status, 201, r.text);
    await waitFor(
      'widgets served',
      async () => (await suite.request(0, 'GET', widgets())).status === 200,
      { timeoutMs: 20_000, intervalMs: 20 }
    );

    const created = await suite.request(
      0,
      'POST',
      widgets(),
      widget('w', {
        tags: ['a', 'b'],
        ports: [
          { name: 'p-http', port: 80 },
          { name: 'p-https', port: 443 },
        ],
      })
    );
    assert.equal(created.status, 201, created.text);
    let rv = (created.body as any).metadata.resourceVersion as string;

    // A set list reordered equals the old one; a map list reordered with a changed port is a
    // merge that adds no key.
    const reordered = await suite.request(
      0,
      'PUT',
      widgets('w'),
      widget(
        'w',
        {
          tags: ['b', 'a'],
          ports: [
            { name: 'p-https', port: 8443 },
            { name: 'p-http', port: 80 },
          ],
        },
        rv
      )
    );
    assert.equal(reordered.status, 200, reordered.text);
    rv = (reordered.body as any).metadata.resourceVersion as string;

    const changed = await suite.request(
      0,
      'PUT',
      widgets('w'),
      widget(
        'w',
        {
          tags: ['a', 'c'],
          ports: [
            { name: 'p-http', port: 80 },
            { name: 'p-https', port: 443 },
            { name: 'p-extra', port: 1 },
            { name: 'metrics', port: 9090 },
          ],
        },
        rv
      )
    );
    assert.equal(changed.status, 422, changed.text);
    assert.deepEqual(
      (changed.body as any).details.causes.map((c: any) => [c.field, c.message]),
      [
        ['spec.tags', 'Invalid value: "array": tags are immutable (order aside)'],
        ['spec.ports', 'Invalid value: "array": port names start with p-'],
        ['spec.ports', 'Invalid value: "array": ports may change but not be added'],
      ]
    );
  });
});
