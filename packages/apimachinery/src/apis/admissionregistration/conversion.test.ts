// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding v1beta1 ↔ v1: every field of the
// v1beta1 schema (checked against the schema model, so a field added to the proto needs a value
// here) round-trips both ways, through the registry's builtinConversions as the Store uses them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemaModel } from '../../schema-model/index.js';
import type { MessageSchema } from '../../schema-model/index.js';
import { builtinConversions } from '../index.js';
import { admissionregistrationResources } from './resources.js';

type Json = Record<string, unknown>;

const group = 'admissionregistration.orch.io';
const rules = (names: string[]) => [
  {
    resourceNames: names,
    operations: ['CREATE', 'UPDATE'],
    apiGroups: ['apps'],
    apiVersions: ['v1'],
    resources: ['deployments', 'deployments/scale'],
    scope: 'Namespaced',
  },
];
const matchResources = {
  namespaceSelector: {
    matchLabels: { env: 'prod' },
    matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }],
  },
  objectSelector: { matchLabels: { managed: 'true' } },
  resourceRules: rules(['web']),
  excludeResourceRules: rules(['legacy']),
  matchPolicy: 'Exact',
};

const policy: Json = {
  apiVersion: `${group}/v1beta1`,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'replica-limit.example.com', generation: 2, labels: { team: 'a' } },
  spec: {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: matchResources,
    validations: [
      {
        expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
        message: 'too many replicas',
        reason: 'Forbidden',
        messageExpression: "'at most ' + params.data.maxReplicas",
      },
    ],
    failurePolicy: 'Ignore',
    auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
    matchConditions: [{ name: 'has-replicas', expression: 'has(object.spec.replicas)' }],
    variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
  },
  status: {
    observedGeneration: 2,
    typeChecking: {
      expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'no type' }],
    },
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        observedGeneration: 2,
        lastTransitionTime: '2026-11-23T10:20:30Z',
        reason: 'TypeChecked',
        message: 'type checking done',
      },
    ],
  },
};

const binding: Json = {
  apiVersion: `${group}/v1beta1`,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'replica-limit-prod' },
  spec: {
    policyName: 'replica-limit.example.com',
    paramRef: {
      name: 'replica-limits',
      namespace: 'default',
      selector: { matchLabels: { limits: 'true' } },
      parameterNotFoundAction: 'Allow',
    },
    matchResources,
    validationActions: ['Warn', 'Audit'],
  },
};

/** JSON paths of the schema's fields below `spec` and `status` that the object leaves unset. */
function missingFields(obj: unknown, m: MessageSchema, path: string, out: string[]): void {
  for (const [key, { field }] of m.jsonFields) {
    if (path === '' && (key === 'metadata' || key === 'apiVersion' || key === 'kind')) continue;
    const v = (obj as Json | undefined)?.[key];
    const at = path ? `${path}.${key}` : key;
    if (v === undefined) {
      out.push(at);
      continue;
    }
    if (!('message' in field.value) || field.map) continue;
    const sub = field.value.message;
    if (sub.fullName.startsWith('orch.api.meta.v1.')) continue; // LabelSelector, Condition, Time: upstream's shared types
    if (field.repeated) missingFields((v as unknown[])[0], sub, `${at}[0]`, out);
    else missingFields(v, sub, at, out);
  }
}

for (const obj of [policy, binding]) {
  const kind = String(obj['kind']);
  test(`${kind}: the test object sets every field of the v1beta1 schema`, () => {
    const k = builtinSchemaModel().kind({ group, version: 'v1beta1', kind });
    assert.ok(k, `${kind} v1beta1 has a schema`);
    const missing: string[] = [];
    missingFields(obj, k.message, '', missing);
    assert.deepEqual(missing, []);
  });

  test(`${kind}: v1beta1 → v1 → v1beta1 and v1 → v1beta1 → v1 lose nothing`, () => {
    const before = structuredClone(obj);
    const v1 = builtinConversions.convert(obj, { group, version: 'v1' });
    assert.deepEqual(obj, before, 'the input is left untouched');
    assert.deepEqual(v1, { ...obj, apiVersion: `${group}/v1` });
    assert.deepEqual(builtinConversions.convert(v1, { group, version: 'v1beta1' }), obj);
    const back = builtinConversions.convert(
      builtinConversions.convert(v1, { group, version: 'v1beta1' }),
      { group, version: 'v1' }
    );
    assert.deepEqual(back, v1);
  });
}

test('the v1beta1 definitions: stored as v1, deprecated in 1.31, removed in 1.34, replacement v1', () => {
  const v1beta1 = admissionregistrationResources.filter((d) => d.version === 'v1beta1');
  assert.deepEqual(
    v1beta1.map((d) => d.kind),
    ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']
  );
  for (const def of v1beta1) {
    assert.equal(def.group, group);
    assert.equal(def.version, 'v1beta1');
    assert.equal(def.storageVersion, 'v1');
    assert.deepEqual(def.deprecation, {
      deprecatedIn: '1.31',
      removedIn: '1.34',
      replacement: `${group}/v1 ${def.kind}`,
    });
    assert.ok(builtinConversions.has(group, def.kind, 'v1beta1', 'v1'));
    assert.ok(builtinConversions.has(group, def.kind, 'v1', 'v1beta1'));
  }
});
