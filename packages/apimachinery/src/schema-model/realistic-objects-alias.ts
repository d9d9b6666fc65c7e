// Realistic objects of the alias branch's kinds: TokenRequest as `kubectl create token` sends it
// and the ServiceAccount token subresource answers it; ValidatingAdmissionPolicy(Binding)
// v1beta1, field for field the v1 objects (registry/builtin-alias.ts).
export const realisticObjectsAlias: Record<string, Record<string, unknown>> = {
  'admissionregistration.orch.io/v1beta1/ValidatingAdmissionPolicy': {
    apiVersion: 'admissionregistration.orch.io/v1beta1',
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
  'admissionregistration.orch.io/v1beta1/ValidatingAdmissionPolicyBinding': {
    apiVersion: 'admissionregistration.orch.io/v1beta1',
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
  'authentication.orch.io/v1/TokenRequest': {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenRequest',
    metadata: { name: 'builder', namespace: 'ci' },
    spec: {
      audiences: ['https://orch.example.com', 'vault'],
      expirationSeconds: 3600,
      boundObjectRef: {
        kind: 'Pod',
        apiVersion: 'v1',
        name: 'builder-7c9f',
        uid: '0f6d1c2e-8a4b-4c1d-9e2f-3a4b5c6d7e8f',
      },
    },
    status: {
      token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6Y2k6YnVpbGRlciJ9.c2ln',
      expirationTimestamp: '2026-11-23T22:00:00Z',
    },
  },
};
