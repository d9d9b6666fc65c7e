// The fuzzing harness's judgement of a refusal's causes, without a suite: a cause's field must
// name a field of the kind or of the body sent; an unknown field is named where it was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzTargets } from './fuzz-cases.js';
import { fieldIsReal } from './server-fuzz.js';

const deployment = fuzzTargets().find((t) => t.def.kind === 'Deployment' && t.def.group === 'apps');

test('fuzz judgement: a cause naming a field of the schema or of the body sent is real', () => {
  assert.ok(deployment);
  assert.ok(fieldIsReal('spec.template.spec.containers[0].image', deployment, {}));
  assert.ok(
    fieldIsReal('metadata.labels[a.b/c]', deployment, { metadata: { labels: { 'a.b/c': 'x' } } })
  );
  assert.ok(!fieldIsReal('spec.nothing', deployment, {}));
  assert.ok(!fieldIsReal('', deployment, {}));
});

test('fuzz judgement: an unknown field is real where its parent is (a JSON patch copied it there)', () => {
  assert.ok(deployment);
  // [{"op":"copy","path":"/status/conditions/0","from":""}]: the whole object in a condition.
  const sent = [{ op: 'copy', path: '/status/conditions/0', from: '' }];
  assert.ok(fieldIsReal('status.conditions[0].apiVersion', deployment, sent, 'unknown field'));
  assert.ok(!fieldIsReal('status.conditions[0].apiVersion', deployment, sent, 'Required value'));
  assert.ok(fieldIsReal('[]', deployment, sent, 'unknown field'), 'an empty key at the top');
  assert.ok(!fieldIsReal('spec.nothing.apiVersion', deployment, sent, 'unknown field'));
});

test('fuzz judgement: a path upstream writes for a field that does not exist is accepted as upstream writes it', () => {
  const limitRange = fuzzTargets().find((t) => t.def.kind === 'LimitRange');
  assert.ok(limitRange && deployment);
  assert.ok(fieldIsReal('spec.limits[2].limits', limitRange, {}));
  assert.ok(!fieldIsReal('spec.limits[2].limits', deployment, {}));
  assert.ok(!fieldIsReal('spec.limits[2].other', limitRange, {}));
});
