import { test } from 'node:test';
import assert from 'node:assert/strict';

import { newPath } from '../errors/field-errors.js';

import { checkAdmissionExpression } from './validate-expressions.js';
import type { AdmissionExpressionKind } from './validate-expressions.js';

const path = newPath('spec', 'validations').index(0).child('expression');

test('each kind of expression compiles in its own environment, errors are Invalid at the path', () => {
  const rows: [string, AdmissionExpressionKind, string, boolean, string[], RegExp | null][] = [
    [
      'webhook condition over request',
      'webhookMatchCondition',
      'request.operation == "CREATE"',
      false,
      [],
      null,
    ],
    [
      'webhook condition: params undeclared',
      'webhookMatchCondition',
      'params.x == 1',
      false,
      [],
      /Unknown variable: params/u,
    ],
    [
      'webhook condition: a typo in request',
      'webhookMatchCondition',
      'request.usrInfo.username == "a"',
      false,
      [],
      /undefined field 'usrInfo'/u, // cel-go's checker message
    ],
    ['webhook condition: not bool', 'webhookMatchCondition', '"s"', false, [], /./u],
    [
      'policy condition: no variables',
      'policyMatchCondition',
      'variables.v == 1',
      false,
      ['v'],
      /./u,
    ],
    [
      'validation with params',
      'validation',
      'object.metadata.name != params.data.bad',
      true,
      [],
      null,
    ],
    [
      'validation without paramKind: params undeclared',
      'validation',
      'params.x == 1',
      false,
      [],
      /Unknown variable: params/u,
    ],
    ['validation: not bool', 'validation', '1 + 1', false, [], /./u],
    [
      'validation: a variable declared before',
      'validation',
      'variables.name == "x"',
      false,
      ['name'],
      null,
    ],
    [
      'validation: a variable not declared',
      'validation',
      'variables.missing',
      false,
      ['name'],
      /undefined field 'missing'/u,
    ],
    ['variable: any type', 'variable', 'object.metadata.name', false, [], null],
    [
      'variable: only those before it',
      'variable',
      'variables.after == 1',
      false,
      [],
      /undefined field 'after'/u,
    ],
    [
      'messageExpression: string',
      'messageExpression',
      '"too many: " + string(object.x)',
      false,
      [],
      null,
    ],
    ['messageExpression: not string', 'messageExpression', '1', false, [], /./u],
    ['auditAnnotation: string', 'auditAnnotation', '"v"', false, [], null],
    ['auditAnnotation: not string', 'auditAnnotation', '1 == 1', false, [], /./u],
  ];
  for (const [row, kind, expression, hasParams, variables, want] of rows) {
    const errs = checkAdmissionExpression(
      expression,
      { kind, hasParams, variables, preexisting: false },
      path
    );
    if (want === null) {
      assert.deepEqual(errs, [], row);
      continue;
    }
    assert.equal(errs.length, 1, row);
    assert.equal(errs[0]!.type, 'FieldValueInvalid', row);
    assert.equal(errs[0]!.field, 'spec.validations[0].expression', row);
    assert.match(errs[0]!.message, want, row);
  }
});

test('an expression already stored is not compiled again (updates never invalidate it)', () => {
  const ctx = { kind: 'validation', hasParams: false, variables: [] } as const;
  assert.equal(checkAdmissionExpression('1 + 1', { ...ctx, preexisting: false }, path).length, 1);
  assert.deepEqual(checkAdmissionExpression('1 + 1', { ...ctx, preexisting: true }, path), []);
});
