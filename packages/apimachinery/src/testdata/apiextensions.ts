// Realistic objects of apiextensions.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const apiextensionsObjects: Record<string, Record<string, unknown>> = {
  'apiextensions.orch.io/v1/CustomResourceDefinition': {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: 'crontabs.stable.example.com',
      uid: '7c1f0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
      resourceVersion: '4242',
      generation: 2,
      creationTimestamp: '2024-05-01T10:20:30Z',
      finalizers: ['customresourcecleanup.apiextensions.orch.io'],
    },
    spec: {
      group: 'stable.example.com',
      names: {
        plural: 'crontabs',
        singular: 'crontab',
        kind: 'CronTab',
        listKind: 'CronTabList',
        shortNames: ['ct'],
        categories: ['all'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['cronSpec'],
                  properties: {
                    cronSpec: {
                      type: 'string',
                      pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$',
                    },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                    mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Fast' },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: {
                          name: { type: 'string' },
                          port: { 'x-kubernetes-int-or-string': true },
                        },
                      },
                    },
                    labels: {
                      type: 'object',
                      additionalProperties: { type: 'string' },
                      'x-kubernetes-map-type': 'granular',
                    },
                  },
                  'x-kubernetes-validations': [
                    {
                      rule: 'self.replicas <= 5 || self.mode == "Slow"',
                      message: 'more than 5 replicas need mode Slow',
                      reason: 'FieldValueInvalid',
                      fieldPath: '.replicas',
                    },
                  ],
                },
                status: {
                  type: 'object',
                  properties: {
                    replicas: { type: 'integer' },
                    labelSelector: { type: 'string' },
                  },
                  'x-kubernetes-preserve-unknown-fields': true,
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.labelSelector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          selectableFields: [{ jsonPath: '.spec.mode' }],
        },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          deprecated: true,
          deprecationWarning: 'stable.example.com/v1beta1 CronTab is deprecated; use v1',
          schema: {
            openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: {
            service: {
              namespace: 'crontab',
              name: 'crontab-conversion',
              path: '/convert',
              port: 443,
            },
            caBundle: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==',
          },
          conversionReviewVersions: ['v1'],
        },
      },
    },
    status: {
      conditions: [
        {
          type: 'NamesAccepted',
          status: 'True',
          lastTransitionTime: '2024-05-01T10:20:31Z',
          reason: 'NoConflicts',
          message: 'no conflicts found',
        },
        {
          type: 'Established',
          status: 'True',
          lastTransitionTime: '2024-05-01T10:20:32Z',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
      ],
      acceptedNames: {
        plural: 'crontabs',
        singular: 'crontab',
        kind: 'CronTab',
        listKind: 'CronTabList',
        shortNames: ['ct'],
        categories: ['all'],
      },
      storedVersions: ['v1'],
    },
  },
};
