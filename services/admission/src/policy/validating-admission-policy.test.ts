import assert from 'node:assert/strict';
import { test } from 'node:test';

import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { createLogger } from '@orch/component-base/logs';
import { Registry } from 'prom-client';

import type { AdmissionContext, AdmissionRequest, Listers, PluginDeps } from '../interfaces.js';
import { arrayLister } from '../matching/test-lister.js';

import { CompileCache, compilePolicy } from './compiled-policy.js';
import { compileMatchConditions } from './match-conditions.js';
import {
  VALIDATION_FAILURE_ANNOTATION,
  ValidatingAdmissionPolicy,
} from './validating-admission-policy.js';

const G = 'admissionregistration.orch.io';

function configMap(
  name: string,
  data: Record<string, string>,
  namespace = 'team-a',
  labels?: Record<string, string>
): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, ...(labels ? { labels } : {}) },
    data,
  };
}

function req(
  object: ApiObject | undefined,
  over: Partial<AdmissionRequest> = {}
): AdmissionRequest {
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    subResource: '',
    namespace: 'team-a',
    name: object?.metadata.name ?? 'cm',
    userInfo: { name: 'alice', uid: '', groups: ['devs'], extra: {} },
    object,
    oldObject: undefined,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' },
    dryRun: false,
    ...over,
  };
}

const configMapRules = {
  resourceRules: [
    {
      apiGroups: [''],
      apiVersions: ['v1'],
      operations: ['CREATE', 'UPDATE'],
      resources: ['configmaps'],
    },
  ],
};

function policy(name: string, spec: Record<string, unknown>, rv = '1'): ApiObject {
  return {
    apiVersion: `${G}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, uid: `uid-${name}`, resourceVersion: rv },
    spec: { failurePolicy: 'Fail', matchConstraints: configMapRules, ...spec },
  };
}

function binding(name: string, policyName: string, spec: Record<string, unknown> = {}): ApiObject {
  return {
    apiVersion: `${G}/v1`,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name, uid: `uid-${name}`, resourceVersion: '1' },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

interface World {
  policies: ApiObject[];
  bindings: ApiObject[];
  configmaps?: ApiObject[];
  namespaces?: ApiObject[];
}

function setup(world: World) {
  const registry = new Registry();
  const byResource: Record<string, ApiObject[]> = {
    [`${G}/validatingadmissionpolicies`]: world.policies,
    [`${G}/validatingadmissionpolicybindings`]: world.bindings,
    ['/configmaps']: world.configmaps ?? [],
  };
  const namespaces = world.namespaces ?? [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'prod' } } },
  ];
  byResource['/namespaces'] = namespaces;
  const listers: Listers = {
    namespaces: arrayLister(namespaces),
    forResource(group, resource) {
      const objs = byResource[`${group}/${resource}`];
      if (!objs) return Promise.reject(new Error(`no lister for ${group}/${resource}`));
      return Promise.resolve(arrayLister(objs));
    },
  };
  const deps: PluginDeps = {
    listers,
    registry,
    log: createLogger('test', 'error'),
    config: undefined,
    matchConditions: compileMatchConditions,
  };
  const plugin = ValidatingAdmissionPolicy(deps);
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  const ctx: AdmissionContext = {
    warn: (t) => warnings.push(t),
    annotate: (k, v) => {
      annotations[k] = v;
    },
    signal: new AbortController().signal,
  };
  return { plugin, ctx, warnings, annotations, registry };
}

async function denied(p: Promise<void>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a denial');
}

test('a ConfigMap refused by a CEL rule: upstream message, 422 Invalid; a valid one passes', async () => {
  const w = setup({
    policies: [
      policy('max-keys', {
        validations: [{ expression: 'size(object.data) <= 2', message: 'at most 2 keys' }],
      }),
    ],
    bindings: [binding('max-keys-binding', 'max-keys')],
  });
  assert.equal(w.plugin.name, 'ValidatingAdmissionPolicy');
  assert.ok(w.plugin.handles('CREATE') && w.plugin.handles('DELETE'));
  const err = await denied(
    w.plugin.validate!(req(configMap('cm', { a: '1', b: '2', c: '3' })), w.ctx)
  );
  assert.equal(err.status.code, 422);
  assert.equal(err.status.reason, 'Invalid');
  assert.equal(
    err.status.message,
    `configmaps "cm" is forbidden: ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-binding' denied request: at most 2 keys`
  );
  await w.plugin.validate!(req(configMap('cm', { a: '1' })), w.ctx);
  // Not matched by the policy's rules: a Secret passes.
  await w.plugin.validate!(
    req(configMap('cm', { a: '1', b: '2', c: '3' }), {
      resource: { group: '', version: 'v1', resource: 'secrets' },
      kind: { group: '', version: 'v1', kind: 'Secret' },
    }),
    w.ctx
  );
});

test('no message: "failed expression: <expression>"; a policy without a binding does nothing', async () => {
  const w = setup({
    policies: [
      policy('p', { validations: [{ expression: 'object.metadata.name != "bad"' }] }),
      policy('unbound', { validations: [{ expression: 'false' }] }),
    ],
    bindings: [binding('b', 'p')],
  });
  const err = await denied(w.plugin.validate!(req(configMap('bad', {})), w.ctx));
  assert.match(
    err.status.message ?? '',
    /denied request: failed expression: object.metadata.name != "bad"$/u
  );
  await w.plugin.validate!(req(configMap('good', {})), w.ctx);
});

test('messageExpression and reason rows: Unauthorized 401, Forbidden 403, Invalid 422, RequestEntityTooLarge 413', async () => {
  const rows: [reason: string | undefined, code: number][] = [
    ['Unauthorized', 401],
    ['Forbidden', 403],
    ['Invalid', 422],
    ['RequestEntityTooLarge', 413],
    [undefined, 422],
  ];
  for (const [reason, code] of rows) {
    const w = setup({
      policies: [
        policy('p', {
          validations: [
            {
              expression: 'size(object.data) == 0',
              message: 'static',
              messageExpression:
                '"configmap " + object.metadata.name + " has " + string(size(object.data)) + " keys"',
              ...(reason ? { reason } : {}),
            },
          ],
        }),
      ],
      bindings: [binding('b', 'p')],
    });
    const err = await denied(w.plugin.validate!(req(configMap('cm', { a: '1' })), w.ctx));
    assert.equal(err.status.code, code, `reason ${reason}`);
    assert.equal(err.status.reason, reason ?? 'Invalid');
    assert.match(err.status.message ?? '', /denied request: configmap cm has 1 keys$/u);
  }
});

test('a failing messageExpression falls back to message', async () => {
  const w = setup({
    policies: [
      policy('p', {
        validations: [
          { expression: 'false', message: 'fallback', messageExpression: 'object.nope' },
        ],
      }),
    ],
    bindings: [binding('b', 'p')],
  });
  const err = await denied(w.plugin.validate!(req(configMap('cm', {})), w.ctx));
  assert.match(err.status.message ?? '', /denied request: fallback$/u);
});

test('params by name (paramKind ConfigMap), and parameterNotFoundAction Allow and Deny', async () => {
  const limits = configMap('limits', { maxKeys: '1' }, 'team-a');
  const spec = {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [
      {
        expression: 'size(object.data) <= int(params.data.maxKeys)',
        messageExpression: '"at most " + params.data.maxKeys + " keys"',
      },
    ],
  };
  const w = setup({
    policies: [policy('p', spec)],
    bindings: [
      binding('b', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }),
    ],
    configmaps: [limits],
  });
  const err = await denied(w.plugin.validate!(req(configMap('cm', { a: '1', b: '2' })), w.ctx));
  assert.match(err.status.message ?? '', /denied request: at most 1 keys$/u);
  await w.plugin.validate!(req(configMap('cm', { a: '1' })), w.ctx);

  // The param is looked up in the request's namespace: none in team-b.
  const other = await denied(
    w.plugin.validate!(req(configMap('cm', { a: '1' }, 'team-b'), { namespace: 'team-b' }), w.ctx)
  );
  assert.equal(other.status.code, 500);
  assert.match(
    other.status.message ?? '',
    /no params found for policy binding with `Deny` parameterNotFoundAction/u
  );

  const allow = setup({
    policies: [policy('p', spec)],
    bindings: [
      binding('b', 'p', { paramRef: { name: 'missing', parameterNotFoundAction: 'Allow' } }),
    ],
    configmaps: [limits],
  });
  await allow.plugin.validate!(req(configMap('cm', { a: '1', b: '2' })), allow.ctx);
});

test('params by selector: the policy runs once per selected param', async () => {
  const w = setup({
    policies: [
      policy('p', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        validations: [
          {
            expression: '!(params.data.forbidden in object.data)',
            messageExpression: '"key " + params.data.forbidden + " is forbidden"',
          },
        ],
      }),
    ],
    bindings: [
      binding('b', 'p', {
        paramRef: {
          namespace: 'policy',
          selector: { matchLabels: { kind: 'rule' } },
          parameterNotFoundAction: 'Deny',
        },
        validationActions: ['Warn'],
      }),
    ],
    configmaps: [
      configMap('r1', { forbidden: 'x' }, 'policy', { kind: 'rule' }),
      configMap('r2', { forbidden: 'y' }, 'policy', { kind: 'rule' }),
      configMap('r3', { forbidden: 'a' }, 'policy', { kind: 'other' }),
    ],
  });
  await w.plugin.validate!(req(configMap('cm', { x: '1', y: '2', a: '3' })), w.ctx);
  assert.deepEqual(w.warnings.sort(), [
    `Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': key x is forbidden`,
    `Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': key y is forbidden`,
  ]);
});

test('Warn and Audit actions admit the request, warn, and annotate validation_failure', async () => {
  const w = setup({
    policies: [
      policy('p', {
        validations: [
          { expression: 'true' },
          {
            expression: '"owner" in object.metadata.labels',
            message: 'an owner label is required',
          },
        ],
      }),
    ],
    bindings: [binding('b', 'p', { validationActions: ['Warn', 'Audit'] })],
  });
  await w.plugin.validate!(req(configMap('cm', {}, 'team-a', { app: 'web' })), w.ctx);
  assert.deepEqual(w.warnings, [
    `Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': an owner label is required`,
  ]);
  assert.deepEqual(JSON.parse(w.annotations[VALIDATION_FAILURE_ANNOTATION]!), [
    {
      message: 'an owner label is required',
      policy: 'p',
      binding: 'b',
      expressionIndex: 1,
      validationActions: ['Warn', 'Audit'],
    },
  ]);
});

test('Deny with Audit denies and annotates', async () => {
  const w = setup({
    policies: [policy('p', { validations: [{ expression: 'false', message: 'no' }] })],
    bindings: [binding('b', 'p', { validationActions: ['Deny', 'Audit'] })],
  });
  await denied(w.plugin.validate!(req(configMap('cm', {})), w.ctx));
  assert.ok(w.annotations[VALIDATION_FAILURE_ANNOTATION]);
});

test('failurePolicy on a runtime error: Fail denies naming the expression, Ignore admits', async () => {
  const spec = { validations: [{ expression: 'object.spec.replicas > 1' }] };
  const fail = setup({ policies: [policy('p', spec)], bindings: [binding('b', 'p')] });
  const err = await denied(fail.plugin.validate!(req(configMap('cm', {})), fail.ctx));
  assert.equal(err.status.code, 422);
  assert.match(
    err.status.message ?? '',
    /denied request: expression 'object.spec.replicas > 1' resulted in error: No such key: spec$/u
  );
  const ignore = setup({
    policies: [policy('p', { ...spec, failurePolicy: 'Ignore' })],
    bindings: [binding('b', 'p')],
  });
  await ignore.plugin.validate!(req(configMap('cm', {})), ignore.ctx);
});

test('a stored policy whose expression does not compile is judged by failurePolicy', async () => {
  const w = setup({
    policies: [policy('p', { validations: [{ expression: 'undeclared == 1' }] })],
    bindings: [binding('b', 'p')],
  });
  const err = await denied(w.plugin.validate!(req(configMap('cm', {})), w.ctx));
  assert.match(
    err.status.message ?? '',
    /compilation error: compilation failed: .*Unknown variable: undeclared/u
  );
});

test('cost: one expression over the per-call limit, and the policy budget of 10,000,000', async () => {
  const big = configMap('cm', { s: 'x'.repeat(19_999) });
  // cel-go's regex cost: ⌈20,000 × 0.1⌉ × ⌈2004 × 0.25⌉ = 1,002,000.
  const heavy = `object.data.s.matches("${'x'.repeat(2004)}")`;
  const fail = setup({
    policies: [policy('p', { validations: [{ expression: heavy }] })],
    bindings: [binding('b', 'p')],
  });
  const err = await denied(fail.plugin.validate!(req(big), fail.ctx));
  assert.match(err.status.message ?? '', /operation cancelled: actual cost limit exceeded$/u);
  const ignore = setup({
    policies: [policy('p', { validations: [{ expression: heavy }], failurePolicy: 'Ignore' })],
    bindings: [binding('b', 'p')],
  });
  await ignore.plugin.validate!(req(big), ignore.ctx);

  // Eleven expressions of 2000 × 499 = 998,000 each: each under the per-call limit, together
  // over the policy's budget.
  const each = `object.data.s.matches("${'x'.repeat(1996)}")`;
  const many = setup({
    policies: [
      policy('p', { validations: Array.from({ length: 11 }, () => ({ expression: each })) }),
    ],
    bindings: [binding('b', 'p')],
  });
  const budgetErr = await denied(many.plugin.validate!(req(big), many.ctx));
  assert.match(
    budgetErr.status.message ?? '',
    /validation failed due to running out of cost budget, no further validation rules will be run$/u
  );
  // Ten of them fit.
  const ten = setup({
    policies: [
      policy('p', { validations: Array.from({ length: 10 }, () => ({ expression: each })) }),
    ],
    bindings: [binding('b', 'p')],
  });
  await ten.plugin.validate!(req(big), ten.ctx);
});

test('variables (lazy), namespaceObject, request, matchConditions and auditAnnotations', async () => {
  const w = setup({
    policies: [
      policy('p', {
        matchConditions: [
          { name: 'not-system', expression: '!request.userInfo.username.startsWith("system:")' },
        ],
        variables: [
          { name: 'env', expression: 'namespaceObject.metadata.labels.env' },
          { name: 'isProd', expression: 'variables.env == "prod"' },
          { name: 'neverRead', expression: 'object.nope.nope' },
        ],
        validations: [
          {
            expression:
              '!variables.isProd || has(object.metadata.labels) && "owner" in object.metadata.labels',
            message: 'prod needs an owner',
          },
        ],
        auditAnnotations: [{ key: 'env', valueExpression: '"env=" + variables.env' }],
      }),
    ],
    bindings: [binding('b', 'p')],
  });
  const err = await denied(w.plugin.validate!(req(configMap('cm', {})), w.ctx));
  assert.match(err.status.message ?? '', /prod needs an owner$/u);
  assert.equal(w.annotations['p/env'], 'env=prod');
  await w.plugin.validate!(req(configMap('cm', {}, 'team-a', { owner: 'me' })), w.ctx);
  // matchConditions false: the policy does not apply.
  await w.plugin.validate!(
    req(configMap('cm', {}), {
      userInfo: { name: 'system:admin', uid: '', groups: [], extra: {} },
    }),
    w.ctx
  );
});

test('binding matchResources narrow the policy (namespaceSelector, excludeResourceRules)', async () => {
  const w = setup({
    policies: [policy('p', { validations: [{ expression: 'false', message: 'no' }] })],
    bindings: [
      binding('b', 'p', {
        matchResources: {
          namespaceSelector: { matchLabels: { env: 'prod' } },
          excludeResourceRules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['*'],
              resources: ['configmaps'],
              resourceNames: ['allowed'],
            },
          ],
        },
      }),
    ],
    namespaces: [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'team-a', labels: { env: 'prod' } },
      },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b', labels: { env: 'dev' } } },
    ],
  });
  await denied(w.plugin.validate!(req(configMap('cm', {})), w.ctx));
  await w.plugin.validate!(req(configMap('cm', {}, 'team-b'), { namespace: 'team-b' }), w.ctx);
  await w.plugin.validate!(req(configMap('allowed', {})), w.ctx);
});

test('metrics: apiserver_validating_admission_policy_check_total and _duration_seconds', async () => {
  const w = setup({
    policies: [policy('p', { validations: [{ expression: 'size(object.data) == 0' }] })],
    bindings: [binding('b', 'p')],
  });
  await w.plugin.validate!(req(configMap('cm', {})), w.ctx);
  await denied(w.plugin.validate!(req(configMap('cm', { a: '1' })), w.ctx));
  const total = await w.registry.getSingleMetricAsString(
    'apiserver_validating_admission_policy_check_total'
  );
  assert.match(
    total,
    /policy="p",policy_binding="b",error_type="no_error",enforcement_action="allow"\} 1/u
  );
  assert.match(
    total,
    /policy="p",policy_binding="b",error_type="no_error",enforcement_action="deny"\} 1/u
  );
  const dur = await w.registry.getSingleMetricAsString(
    'apiserver_validating_admission_policy_check_duration_seconds'
  );
  assert.match(
    dur,
    /apiserver_validating_admission_policy_check_duration_seconds_count\{[^}]*enforcement_action="deny"\} 1/u
  );
});

test('policies are compiled once per uid and resourceVersion', () => {
  let compiles = 0;
  const cache = new CompileCache((o) => (compiles++, compilePolicy(o)));
  const p1 = policy('p', { validations: [{ expression: 'true' }] }, '1');
  const a = cache.get(p1);
  assert.equal(cache.get(p1), a);
  assert.equal(cache.get(structuredClone(p1)), a);
  assert.equal(compiles, 1);
  const b = cache.get(policy('p', { validations: [{ expression: 'false' }] }, '2'));
  assert.notEqual(b, a);
  assert.equal(compiles, 2);
});

test('binding configuration errors: failurePolicy Fail is a 500 naming the binding, Ignore skips it', async () => {
  const rows: [
    what: string,
    spec: Record<string, unknown>,
    b: Record<string, unknown>,
    want: RegExp,
  ][] = [
    [
      'unknown paramKind',
      { paramKind: { apiVersion: 'example.orch.io/v1', kind: 'Nope' } },
      { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } },
      /failed to configure binding b: failed to find resource referenced by paramKind: 'example.orch.io\/v1, Kind=Nope'/u,
    ],
    [
      'paramKind without paramRef',
      { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } },
      {},
      /failed to configure binding b: paramRef is required when paramKind is set/u,
    ],
    [
      'bad objectSelector',
      {},
      {
        matchResources: { objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } },
      },
      /failed to configure binding b:/u,
    ],
  ];
  for (const [what, spec, b, want] of rows) {
    const validations = [{ expression: 'true' }];
    const fail = setup({
      policies: [policy('p', { ...spec, validations })],
      bindings: [binding('b', 'p', b)],
    });
    const err = await denied(fail.plugin.validate!(req(configMap('cm', {})), fail.ctx));
    assert.equal(err.status.code, 500, what);
    assert.match(err.status.message ?? '', want, what);
    const ignore = setup({
      policies: [policy('p', { ...spec, validations, failurePolicy: 'Ignore' })],
      bindings: [binding('b', 'p', b)],
    });
    await ignore.plugin.validate!(req(configMap('cm', {})), ignore.ctx);
  }
});

test('a cluster-scoped paramKind (Namespace) by name', async () => {
  const w = setup({
    policies: [
      policy('p', {
        paramKind: { apiVersion: 'v1', kind: 'Namespace' },
        validations: [
          {
            expression: 'params.metadata.labels.env != "frozen"',
            message: 'the cluster is frozen',
          },
        ],
      }),
    ],
    bindings: [
      binding('b', 'p', { paramRef: { name: 'control', parameterNotFoundAction: 'Deny' } }),
    ],
    namespaces: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'control', labels: { env: 'frozen' } },
      },
    ],
  });
  const err = await denied(w.plugin.validate!(req(configMap('cm', {})), w.ctx));
  assert.match(err.status.message ?? '', /the cluster is frozen$/u);
});

test('a namespaced paramKind without namespace for a cluster-scoped request is a configuration error', async () => {
  const w = setup({
    policies: [
      policy('p', {
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['CREATE'],
              resources: ['namespaces'],
            },
          ],
        },
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        validations: [{ expression: 'true' }],
      }),
    ],
    bindings: [binding('b', 'p', { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } })],
  });
  const ns: ApiObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'new' } };
  const err = await denied(
    w.plugin.validate!(
      req(ns, {
        kind: { group: '', version: 'v1', kind: 'Namespace' },
        resource: { group: '', version: 'v1', resource: 'namespaces' },
        namespace: '',
      }),
      w.ctx
    )
  );
  assert.match(
    err.status.message ?? '',
    /cannot use namespaced paramRef in policy binding that matches cluster-scoped resources/u
  );
});

test('matchPolicy Equivalent: a policy for autoscaling/v2 HPAs judges a write through v1 on the object converted to v2; Exact skips it', async () => {
  const hpaV1: ApiObject = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'team-a' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 60,
    },
  };
  const v1Write = req(hpaV1, {
    kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
    resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
  });
  const v2Policy = (matchPolicy: string): ApiObject =>
    policy('v2-metrics', {
      matchConstraints: {
        matchPolicy,
        resourceRules: [
          {
            apiGroups: ['autoscaling'],
            apiVersions: ['v2'],
            operations: ['CREATE'],
            resources: ['horizontalpodautoscalers'],
          },
        ],
      },
      validations: [
        {
          expression:
            "object.apiVersion == 'autoscaling/v2' && object.spec.metrics.all(m, m.resource.target.averageUtilization < 50)",
          messageExpression:
            "'seen as ' + request.kind.version + ' of a ' + request.requestKind.version + ' request'",
        },
      ],
    });
  const equivalent = setup({
    policies: [v2Policy('Equivalent')],
    bindings: [binding('b', 'v2-metrics')],
  });
  assert.equal(await equivalent.plugin.mayValidate!(v1Write), true);
  const err = await denied(equivalent.plugin.validate!(v1Write, equivalent.ctx));
  assert.match(err.message, /denied request: seen as v2 of a v1 request$/);

  const exact = setup({ policies: [v2Policy('Exact')], bindings: [binding('b', 'v2-metrics')] });
  assert.equal(await exact.plugin.mayValidate!(v1Write), false);
  await exact.plugin.validate!(v1Write, exact.ctx);
});
