// Realistic objects of admissionregistration.orch.io's kinds, as clients and controllers write
// them, keyed `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests,
// the gateway's API tests, the fuzz), never read by a server.
export const admissionregistrationObjects: Record<string, Record<string, unknown>> = {
  'admissionregistration.orch.io/v1/MutatingWebhookConfiguration': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'sidecar-injector', generation: 1 },
    webhooks: [
      {
        name: 'sidecar-injector.example.com',
        clientConfig: {
          service: { namespace: 'injector', name: 'webhook', path: '/mutate', port: 443 },
        },
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['pods'],
            scope: 'Namespaced',
          },
        ],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {
          matchExpressions: [{ key: 'injection', operator: 'NotIn', values: ['disabled'] }],
        },
        objectSelector: {},
        sideEffects: 'None',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1', 'v1beta1'],
        reinvocationPolicy: 'IfNeeded',
        matchConditions: [
          { name: 'not-kube-system', expression: "request.namespace != 'kube-system'" },
        ],
      },
    ],
  },
  'admissionregistration.orch.io/v1/ValidatingWebhookConfiguration': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'policy-checker', generation: 2 },
    webhooks: [
      {
        name: 'deployments.policy.example.com',
        clientConfig: { url: 'https://policy.example.com:8443/validate' },
        rules: [
          {
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['apps'],
            apiVersions: ['*'],
            resources: ['deployments', 'deployments/scale'],
            scope: '*',
          },
        ],
        failurePolicy: 'Ignore',
        matchPolicy: 'Exact',
        namespaceSelector: {},
        objectSelector: { matchLabels: { 'policy.example.com/enforce': 'true' } },
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 5,
        admissionReviewVersions: ['v1'],
      },
    ],
  },
  'admissionregistration.orch.io/v1/ValidatingAdmissionPolicy': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replica-limit.example.com', generation: 1 },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [
          {
            resourceNames: ['web'],
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            resources: ['deployments'],
            scope: '*',
          },
        ],
        matchPolicy: 'Equivalent',
      },
      validations: [
        {
          expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
          message: 'too many replicas',
          reason: 'Invalid',
          messageExpression: "'at most ' + params.data.maxReplicas + ' replicas'",
        },
      ],
      failurePolicy: 'Fail',
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      matchConditions: [{ name: 'has-replicas', expression: 'has(object.spec.replicas)' }],
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
    },
    status: {
      observedGeneration: 1,
      typeChecking: {
        expressionWarnings: [
          { fieldRef: 'spec.validations[0].expression', warning: 'no matching type' },
        ],
      },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          observedGeneration: 1,
          lastTransitionTime: '2024-05-01T10:20:30Z',
          reason: 'TypeChecked',
          message: 'type checking done',
        },
      ],
    },
  },
  'admissionregistration.orch.io/v1/ValidatingAdmissionPolicyBinding': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'replica-limit-prod' },
    spec: {
      policyName: 'replica-limit.example.com',
      paramRef: {
        name: 'replica-limits',
        namespace: 'default',
        parameterNotFoundAction: 'Deny',
      },
      matchResources: {
        namespaceSelector: { matchLabels: { env: 'prod' } },
        objectSelector: {},
        matchPolicy: 'Equivalent',
      },
      validationActions: ['Deny', 'Audit'],
    },
  },
};

// The v1beta1 ValidatingAdmissionPolicy kinds, served beside v1 (apis/admissionregistration), have
// v1's fields: the same objects at that version.
for (const kind of ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']) {
  const v1 = admissionregistrationObjects[`admissionregistration.orch.io/v1/${kind}`]!;
  admissionregistrationObjects[`admissionregistration.orch.io/v1beta1/${kind}`] = {
    ...structuredClone(v1),
    apiVersion: 'admissionregistration.orch.io/v1beta1',
  };
}
