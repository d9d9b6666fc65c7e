import { test } from 'node:test';
import assert from 'node:assert/strict';

import { newPath } from '../errors/field-errors.js';

import { validateMatchConditions, validatePolicyExpressions } from './validate-expressions.js';

test('webhook matchConditions: names and expressions checked, fields named', () => {
  const errs = validateMatchConditions(
    [
      { name: 'ok', expression: 'request.operation == "CREATE"' },
      { name: 'ok', expression: 'object.metadata.name == "x"' },
      { name: '', expression: 'true' },
      { name: 'bad name!', expression: 'true' },
      { name: 'undeclared', expression: 'params.x == 1' },
      { name: 'typo', expression: 'request.usrInfo.username == "a"' },
      { name: 'notbool', expression: '"s"' },
      { name: 'noexpr' },
    ],
    newPath('webhooks').index(0).child('matchConditions')
  );
  const got = errs.map((e) => `${e.type} ${e.field}`);
  assert.deepEqual(got, [
    'FieldValueDuplicate webhooks[0].matchConditions[1].name',
    'FieldValueRequired webhooks[0].matchConditions[2].name',
    'FieldValueInvalid webhooks[0].matchConditions[3].name',
    'FieldValueInvalid webhooks[0].matchConditions[4].expression',
    'FieldValueInvalid webhooks[0].matchConditions[5].expression',
    'FieldValueInvalid webhooks[0].matchConditions[6].expression',
    'FieldValueRequired webhooks[0].matchConditions[7].expression',
  ]);
  assert.match(errs[3]!.message, /Unknown variable: params/u);
  assert.match(errs[4]!.message, /No such key: usrInfo/u);
});

test('webhook matchConditions: at most 64', () => {
  const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  const errs = validateMatchConditions(many, newPath('webhooks').index(0).child('matchConditions'));
  assert.deepEqual(
    errs.map((e) => `${e.type} ${e.field}`),
    ['FieldValueTooMany webhooks[0].matchConditions']
  );
});

test('policy expressions: variables, validations, messageExpression, auditAnnotations, matchConditions', () => {
  const spec = {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    variables: [
      { name: 'name', expression: 'object.metadata.name' },
      { name: 'later', expression: 'variables.after == 1' },
      { name: 'after', expression: '1' },
      { name: 'not-ident', expression: '1' },
    ],
    validations: [
      { expression: 'variables.name != params.data.bad' },
      { expression: 'object.x', messageExpression: '"too many: " + string(object.x)' },
      { expression: '1 + 1' },
      { expression: 'true', messageExpression: '1' },
      { expression: 'variables.missing' },
    ],
    auditAnnotations: [
      { key: 'k', valueExpression: '"v"' },
      { key: 'k2', valueExpression: '1 == 1' },
    ],
    matchConditions: [{ name: 'm', expression: 'variables.name == "x"' }],
  };
  const errs = validatePolicyExpressions(spec, newPath('spec'));
  assert.deepEqual(
    errs.map((e) => `${e.type} ${e.field}`),
    [
      'FieldValueInvalid spec.variables[1].expression',
      'FieldValueInvalid spec.variables[3].name',
      'FieldValueInvalid spec.validations[2].expression',
      'FieldValueInvalid spec.validations[3].messageExpression',
      'FieldValueInvalid spec.validations[4].expression',
      'FieldValueInvalid spec.auditAnnotations[1].valueExpression',
      'FieldValueInvalid spec.matchConditions[0].expression',
    ]
  );
  assert.match(errs[0]!.message, /undefined field 'after'/u);
});

test('policy without paramKind: params is undeclared', () => {
  const errs = validatePolicyExpressions(
    { validations: [{ expression: 'params.x == 1' }] },
    newPath('spec')
  );
  assert.equal(errs.length, 1);
  assert.equal(errs[0]!.field, 'spec.validations[0].expression');
  assert.match(errs[0]!.message, /Unknown variable: params/u);
});
