import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { ApiObject } from '@orch/apimachinery/meta';

import type { AdmissionRequest } from '../interfaces.js';

import { compileMatchConditions } from './match-conditions.js';

function req(over: Partial<AdmissionRequest> = {}): AdmissionRequest {
  const object: ApiObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm', namespace: 'team-a', labels: { app: 'web' } },
    data: { size: '3' },
  };
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    subResource: '',
    namespace: 'team-a',
    name: 'cm',
    userInfo: {
      name: 'alice',
      uid: 'u-1',
      groups: ['devs', 'system:authenticated'],
      extra: { scope: ['x'] },
    },
    object,
    oldObject: undefined,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions', dryRun: ['All'] },
    dryRun: true,
    ...over,
  };
}

const mc = (name: string, expression: string) => ({ name, expression });

test('request is shaped as AdmissionReview.request; object and oldObject (null when absent)', async () => {
  const { conditions, errors } = compileMatchConditions(
    [
      mc(
        'kind',
        'request.kind.kind == "ConfigMap" && request.kind.version == "v1" && request.kind.group == ""'
      ),
      mc(
        'resource',
        'request.resource.resource == "configmaps" && request.requestResource.resource == "configmaps"'
      ),
      mc('sub', 'request.subResource == "" && request.requestKind.kind == "ConfigMap"'),
      mc(
        'names',
        'request.name == "cm" && request.namespace == "team-a" && request.operation == "CREATE"'
      ),
      mc(
        'user',
        'request.userInfo.username == "alice" && request.userInfo.uid == "u-1" && "devs" in request.userInfo.groups && request.userInfo.extra["scope"] == ["x"]'
      ),
      mc('dry', 'request.dryRun && request.options.kind == "CreateOptions"'),
      mc('object', 'object.metadata.labels.app == "web" && oldObject == null'),
    ],
    'webhooks[0].matchConditions'
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(await conditions.evaluate(req()), { matches: true });
});

test('all true matches, any false does not, false wins over an error', async () => {
  const all = compileMatchConditions([mc('a', 'true'), mc('b', 'object.data.size == "3"')], 'p');
  assert.deepEqual(await all.conditions.evaluate(req()), { matches: true });
  const oneFalse = compileMatchConditions(
    [mc('a', 'true'), mc('b', 'object.data.size == "4"')],
    'p'
  );
  assert.deepEqual(await oneFalse.conditions.evaluate(req()), { matches: false });
  const falseAndError = compileMatchConditions(
    [mc('err', 'object.missing.field == 1'), mc('no', 'false')],
    'p'
  );
  assert.deepEqual(await falseAndError.conditions.evaluate(req()), { matches: false });
});

test('an evaluation error is returned as error (the webhook failurePolicy decides)', async () => {
  const { conditions } = compileMatchConditions([mc('err', 'object.spec.replicas > 1')], 'p');
  const r = await conditions.evaluate(req());
  assert.equal(r.matches, false);
  assert.match(
    r.error ?? '',
    /expression 'object.spec.replicas > 1' resulted in error: No such key: spec/u
  );
  // DELETE: object is null, so reading its fields is an error too.
  const del = compileMatchConditions([mc('obj', 'object.metadata.name == "cm"')], 'p');
  const d = await del.conditions.evaluate(req({ operation: 'DELETE', object: undefined }));
  assert.ok(d.error !== undefined);
});

test('compile errors are field errors under the given path; authorizer is not available', () => {
  const { errors } = compileMatchConditions(
    [
      mc('ok', 'true'),
      mc('bad', 'authorizer.group("").resource("pods").check("get").allowed()'),
      mc('syntax', '1 +'),
    ],
    'webhooks[2].matchConditions'
  );
  assert.deepEqual(
    errors.map((e) => `${e.type} ${e.field}`),
    [
      'FieldValueInvalid webhooks[2].matchConditions[1].expression',
      'FieldValueInvalid webhooks[2].matchConditions[2].expression',
    ]
  );
  assert.match(errors[0]!.message, /Unknown variable: authorizer/u);
});

test('an expression over the per-call cost limit is an error, not a match', async () => {
  const big = req({
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm' },
      data: { s: 'x'.repeat(19_999) },
    },
  });
  // ⌈20,000 × 0.1⌉ × ⌈2004 × 0.25⌉ = 1,002,000 (cel-go's regex cost).
  const { conditions } = compileMatchConditions(
    [mc('heavy', `object.data.s.matches("${'x'.repeat(2004)}")`)],
    'p'
  );
  const r = await conditions.evaluate(big);
  assert.match(r.error ?? '', /actual cost limit exceeded/u);
});
