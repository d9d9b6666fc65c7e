// The admission service's proto mapping: a call and a result survive the trip through the
// proto messages (encoded and decoded by the real orch.admission.v1 types), and bad messages are
// refused with a message naming the field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionProto } from '@orch/proto';
import {
  AdmissionMappingError,
  admitCallFromProto,
  admitCallToProto,
  admitResultFromProto,
  admitResultToProto,
} from './admission-mapping.js';
import type { AdmitCall, AdmitResult } from './admission-mapping.js';

const admit = admissionProto.orch.admission.v1.Admission.service.Admit;
/** Through the wire: serialized and deserialized as the gRPC server and client do. */
function wire<T>(type: 'AdmitRequest' | 'AdmitResponse', msg: unknown): T {
  return (
    type === 'AdmitRequest'
      ? admit.requestDeserialize(admit.requestSerialize(msg as never))
      : admit.responseDeserialize(admit.responseSerialize(msg as never))
  ) as T;
}

const call: AdmitCall = {
  phase: 'validating',
  plugins: ['AlwaysPullImages', 'AlwaysDeny'],
  request: {
    operation: 'UPDATE',
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subResource: 'scale',
    namespace: 'ns',
    name: 'd',
    userInfo: { name: 'alice', uid: 'u1', groups: ['dev', 'ops'], extra: { scopes: ['a', 'b'] } },
    object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' } },
    oldObject: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } },
    options: { apiVersion: 'meta.orch.io/v1', kind: 'UpdateOptions', dryRun: ['All'] },
    dryRun: true,
  },
};

test('admission mapping: a call round-trips', () => {
  assert.deepEqual(admitCallFromProto(wire('AdmitRequest', admitCallToProto(call))), call);
  const del: AdmitCall = {
    ...call,
    phase: 'mutating',
    request: { ...call.request, operation: 'DELETE', object: undefined, options: undefined },
  };
  assert.deepEqual(admitCallFromProto(wire('AdmitRequest', admitCallToProto(del))), del);
});

test('admission mapping: results round-trip, allowed and denied', () => {
  const allowed: AdmitResult = {
    allowed: true,
    status: undefined,
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } },
    warnings: ['w1', 'w2'],
    auditAnnotations: { 'a.admission.orch.io/k': 'v' },
    validatingPhaseIdle: true,
  };
  assert.deepEqual(
    admitResultFromProto(wire('AdmitResponse', admitResultToProto(allowed))),
    allowed
  );
  const denied: AdmitResult = {
    allowed: false,
    status: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "p" is invalid: spec: Required value',
      reason: 'Invalid',
      code: 422,
      details: {
        name: 'p',
        kind: 'pods',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec' }],
      },
    },
    object: undefined,
    warnings: [],
    auditAnnotations: {},
  };
  assert.deepEqual(admitResultFromProto(wire('AdmitResponse', admitResultToProto(denied))), denied);
});

test('admission mapping: a message with no phase, a bad operation or bad JSON is refused, naming it', () => {
  const good = wire<Parameters<typeof admitCallFromProto>[0]>(
    'AdmitRequest',
    admitCallToProto(call)
  );
  const rows: [string, Partial<typeof good>, RegExp][] = [
    [
      'no phase',
      { phase: 'PHASE_UNSPECIFIED' },
      /phase must be PHASE_MUTATING or PHASE_VALIDATING/,
    ],
    [
      'bad operation',
      { operation: 'PATCH' },
      /operation must be CREATE, UPDATE, DELETE or CONNECT, not "PATCH"/,
    ],
    ['object not JSON', { object: Buffer.from('{nope') }, /^object is not JSON/],
    ['old_object not JSON', { old_object: Buffer.from('[') }, /^old_object is not JSON/],
  ];
  for (const [name, over, message] of rows) {
    assert.throws(
      () => admitCallFromProto({ ...good, ...over }),
      (e) => e instanceof AdmissionMappingError && message.test(e.message),
      name
    );
  }
});
