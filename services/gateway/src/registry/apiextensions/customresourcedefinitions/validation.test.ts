// CustomResourceDefinition validation as a table: a row per rule of upstream's
// pkg/apis/apiextensions/validation/validation.go, each refusal with its path and message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import { fieldInvalid, newPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
} from './validation.js';
import type { SchemaChecks } from './validation.js';
import { crdSchemaChecks } from './schema-checks.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
function check(errs: FieldError[], want: string[]): void {
  const got = fmt(errs);
  assert.equal(got.length, want.length, `got:\n${got.join('\n')}`);
  got.forEach((g, i) => assert.ok(g.startsWith(want[i]!), `${g}\n  wanted ${want[i]!}`));
}

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['Fast', 'Slow'] },
        replicas: { type: 'integer' },
        size: { type: 'object', properties: { x: { type: 'number' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
};

function crd(): any {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: structuredClone(schema) },
        },
      ],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'] },
  };
}

const v0 = 'spec.versions[0]';
const dns1035 = 'a DNS-1035 label must consist of lower case alphanumeric characters';

const rows: [string, (c: any) => void, string[]][] = [
  ['a valid CRD', () => {}, []],
  [
    'metadata.name must be <plural>.<group>',
    (c) => (c.metadata.name = 'crontab.stable.example.com'),
    ['metadata.name: FieldValueInvalid: must be spec.names.plural+"."+spec.group'],
  ],
  [
    'spec.group required',
    (c) => {
      c.spec.group = '';
      c.metadata.name = 'crontabs.';
    },
    ['spec.group: FieldValueRequired'],
  ],
  [
    'spec.group a DNS subdomain',
    (c) => {
      c.spec.group = 'Stable.example.com';
      c.metadata.name = 'crontabs.Stable.example.com';
    },
    [
      "spec.group: FieldValueInvalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'",
    ],
  ],
  [
    'spec.group with at least one dot',
    (c) => {
      c.spec.group = 'stable';
      c.metadata.name = 'crontabs.stable';
    },
    ['spec.group: FieldValueInvalid: should be a domain with at least one dot'],
  ],
  ['spec.scope required', (c) => delete c.spec.scope, ['spec.scope: FieldValueRequired']],
  [
    'spec.scope Cluster or Namespaced',
    (c) => (c.spec.scope = 'Global'),
    ['spec.scope: FieldValueNotSupported: supported values: "Cluster", "Namespaced"'],
  ],
  [
    'at least one version: none is no storage version, and no stored version',
    (c) => (c.spec.versions = []),
    [
      'spec.versions: FieldValueInvalid: must have exactly one version marked as storage version',
      'status.storedVersions[0]: FieldValueInvalid: missing from spec.versions; v1 was previously a storage version',
    ],
  ],
  [
    'exactly one storage version: two',
    (c) => c.spec.versions.push({ ...structuredClone(c.spec.versions[0]), name: 'v2' }),
    [
      'spec.versions: FieldValueInvalid: must have exactly one version marked as storage version',
      'status.storedVersions: FieldValueInvalid: must have the storage version v2',
    ],
  ],
  [
    'exactly one storage version: none',
    (c) => (c.spec.versions[0].storage = false),
    ['spec.versions: FieldValueInvalid: must have exactly one version marked as storage version'],
  ],
  [
    'version names DNS-1035 labels',
    (c) => {
      c.spec.versions[0].name = 'V1';
      c.status.storedVersions = ['V1'];
    },
    [`${v0}.name: FieldValueInvalid: ${dns1035}`],
  ],
  [
    'version names unique',
    (c) => c.spec.versions.push({ ...structuredClone(c.spec.versions[0]), storage: false }),
    ['spec.versions: FieldValueInvalid: must contain unique version names'],
  ],
  [
    'openAPIV3Schema required',
    (c) => delete c.spec.versions[0].schema,
    [`${v0}.schema.openAPIV3Schema: FieldValueRequired`],
  ],
  [
    'openAPIV3Schema decodes as JSONSchemaProps: a keyword of the wrong JSON type',
    (c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.type = 5),
    [
      `${v0}.schema.openAPIV3Schema.properties[spec].properties[mode].type: FieldValueInvalid: must be of type string`,
    ],
  ],
  [
    'openAPIV3Schema decodes as JSONSchemaProps: a schema that is not an object',
    (c) => (c.spec.versions[0].schema.openAPIV3Schema = true),
    [`${v0}.schema.openAPIV3Schema: FieldValueInvalid: must be an object`],
  ],
  [
    'nullable cannot be true at the root',
    (c) => (c.spec.versions[0].schema.openAPIV3Schema.nullable = true),
    [
      `${v0}.schema.openAPIV3Schema.nullable: FieldValueForbidden: nullable cannot be true at the root`,
    ],
  ],
  [
    'status subresource: only object at the root',
    (c) => {
      c.spec.versions[0].subresources = { status: {} };
      c.spec.versions[0].schema.openAPIV3Schema = { type: 'array', items: { type: 'string' } };
    },
    [
      `${v0}.schema.openAPIV3Schema.type: FieldValueInvalid: only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    ],
  ],
  [
    'status subresource: only some keywords at the root',
    (c) => {
      c.spec.versions[0].subresources = { status: {} };
      c.spec.versions[0].schema.openAPIV3Schema.anyOf = [{ required: ['spec'] }];
    },
    [
      `${v0}.schema.openAPIV3Schema: FieldValueInvalid: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
    ],
  ],
  [
    'scale: specReplicasPath and statusReplicasPath required',
    (c) => (c.spec.versions[0].subresources = { scale: {} }),
    [
      `${v0}.subresources.scale.specReplicasPath: FieldValueRequired`,
      `${v0}.subresources.scale.statusReplicasPath: FieldValueRequired`,
    ],
  ],
  [
    'scale: paths under .spec. and .status., simple JSON paths',
    (c) =>
      (c.spec.versions[0].subresources = {
        scale: {
          specReplicasPath: '.status.replicas',
          statusReplicasPath: 'status.replicas',
          labelSelectorPath: '.metadata.labels',
        },
      }),
    [
      `${v0}.subresources.scale.specReplicasPath: FieldValueInvalid: should be a json path under .spec`,
      `${v0}.subresources.scale.statusReplicasPath: FieldValueInvalid: must be a simple json path starting with .`,
      `${v0}.subresources.scale.labelSelectorPath: FieldValueInvalid: should be a json path under either .spec or .status`,
    ],
  ],
  [
    'printer columns: name, type, format, jsonPath',
    (c) =>
      (c.spec.versions[0].additionalPrinterColumns = [
        { name: '', type: 'float', format: 'percent', jsonPath: 'spec.x' },
        { name: 'Mode', type: '', jsonPath: '' },
      ]),
    [
      `${v0}.additionalPrinterColumns[0].name: FieldValueRequired`,
      `${v0}.additionalPrinterColumns[0].type: FieldValueInvalid: must be one of boolean,date,integer,number,string`,
      `${v0}.additionalPrinterColumns[0].format: FieldValueInvalid: must be one of byte,date,date-time,double,float,int32,int64,password`,
      `${v0}.additionalPrinterColumns[0].jsonPath: FieldValueInvalid: must be a simple json path starting with .`,
      `${v0}.additionalPrinterColumns[1].type: FieldValueRequired: must be one of boolean,date,integer,number,string`,
      `${v0}.additionalPrinterColumns[1].jsonPath: FieldValueRequired`,
    ],
  ],
  [
    'printer columns: a valid one',
    (c) =>
      (c.spec.versions[0].additionalPrinterColumns = [
        { name: 'Replicas', type: 'integer', format: 'int32', jsonPath: '.spec.replicas' },
      ]),
    [],
  ],
  [
    'selectable fields: scalar types, no metadata, no arrays, known fields, unique',
    (c) =>
      (c.spec.versions[0].selectableFields = [
        { jsonPath: '.spec.mode' },
        { jsonPath: '.spec.size' },
        { jsonPath: '.spec.nope' },
        { jsonPath: '.spec.labels[0]' },
        { jsonPath: '.spec.mode' },
        { jsonPath: '' },
        { jsonPath: '.spec.labels.app' },
      ]),
    [
      `${v0}.selectableFields[1].jsonPath: FieldValueInvalid: must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
      `${v0}.selectableFields[2].jsonPath: FieldValueInvalid: is an invalid path: does not refer to a valid field`,
      `${v0}.selectableFields[3].jsonPath: FieldValueInvalid: is an invalid path: array notation is not allowed`,
      `${v0}.selectableFields[4].jsonPath: FieldValueDuplicate`,
      `${v0}.selectableFields[5].jsonPath: FieldValueRequired`,
    ],
  ],
  [
    'selectable fields: at most 8',
    (c) => {
      const props = c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
      c.spec.versions[0].selectableFields = [];
      for (let i = 0; i < 9; i++) {
        props[`f${i}`] = { type: 'string' };
        c.spec.versions[0].selectableFields.push({ jsonPath: `.spec.f${i}` });
      }
    },
    [`${v0}.selectableFields: FieldValueTooMany: must have at most 8 items`],
  ],
  [
    'deprecationWarning only for deprecated versions',
    (c) => (c.spec.versions[0].deprecationWarning = 'old'),
    [`${v0}.deprecationWarning: FieldValueInvalid: can only be set for deprecated versions`],
  ],
  [
    'deprecationWarning at most 256 characters, printable',
    (c) => {
      c.spec.versions[0].deprecated = true;
      c.spec.versions[0].deprecationWarning = `${'x'.repeat(257)}\u0007`;
    },
    [
      `${v0}.deprecationWarning: FieldValueInvalid: must be <= 256 characters long`,
      `${v0}.deprecationWarning: FieldValueInvalid: must only contain printable UTF-8 characters; control character found at index 257`,
    ],
  ],
  [
    'deprecationWarning not empty',
    (c) => {
      c.spec.versions[0].deprecated = true;
      c.spec.versions[0].deprecationWarning = '';
    },
    [`${v0}.deprecationWarning: FieldValueInvalid: must not be an empty string`],
  ],
  [
    'names required: plural, singular, kind, listKind',
    (c) => {
      c.spec.names = {};
      c.metadata.name = '.stable.example.com';
    },
    [
      'spec.names.plural: FieldValueRequired',
      'spec.names.singular: FieldValueRequired',
      'spec.names.kind: FieldValueRequired',
      'spec.names.listKind: FieldValueRequired',
    ],
  ],
  [
    'names: DNS-1035 labels, kind and listKind CamelCase, shortNames and categories labels',
    (c) => {
      c.spec.names = {
        plural: 'CronTabs',
        singular: 'cron_tab',
        kind: 'Cron.Tab',
        listKind: 'CronTab_List',
        shortNames: ['ct', 'C T'],
        categories: ['all', 'my.things'],
      };
      c.metadata.name = 'CronTabs.stable.example.com';
    },
    [
      `spec.names.plural: FieldValueInvalid: ${dns1035}`,
      `spec.names.singular: FieldValueInvalid: ${dns1035}`,
      `spec.names.kind: FieldValueInvalid: may have mixed case, but should otherwise match: ${dns1035}`,
      `spec.names.listKind: FieldValueInvalid: may have mixed case, but should otherwise match: ${dns1035}`,
      `spec.names.shortNames[1]: FieldValueInvalid: ${dns1035}`,
      `spec.names.categories[1]: FieldValueInvalid: ${dns1035}`,
    ],
  ],
  [
    'names: kind and listKind differ',
    (c) => (c.spec.names.listKind = 'CronTab'),
    ['spec.names.listKind: FieldValueInvalid: kind and listKind may not be the same'],
  ],
  [
    'conversion strategy None or Webhook',
    (c) => (c.spec.conversion = { strategy: 'Magic' }),
    ['spec.conversion.strategy: FieldValueNotSupported: supported values: "None", "Webhook"'],
  ],
  [
    'conversion Webhook needs clientConfig and conversionReviewVersions',
    (c) => (c.spec.conversion = { strategy: 'Webhook' }),
    [
      'spec.conversion.webhook.clientConfig: FieldValueRequired: required when strategy is set to Webhook',
      'spec.conversion.webhook.conversionReviewVersions: FieldValueRequired',
    ],
  ],
  [
    'conversion Webhook: exactly one of url or service',
    (c) =>
      (c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'https://conv.example.com', service: { namespace: 'a', name: 'b' } },
          conversionReviewVersions: ['v1'],
        },
      }),
    [
      'spec.conversion.webhook.clientConfig: FieldValueRequired: exactly one of url or service is required',
    ],
  ],
  [
    'conversion Webhook: url https, no user, fragment or query',
    (c) =>
      (c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'http://me@conv.example.com/convert?x=1#top' },
          conversionReviewVersions: ['v1'],
        },
      }),
    [
      "spec.conversion.webhook.clientConfig.url: FieldValueInvalid: 'https' is the only allowed URL scheme",
      'spec.conversion.webhook.clientConfig.url: FieldValueInvalid: user information is not permitted in the URL',
      'spec.conversion.webhook.clientConfig.url: FieldValueInvalid: fragments are not permitted in the URL',
      'spec.conversion.webhook.clientConfig.url: FieldValueInvalid: query parameters are not permitted in the URL',
    ],
  ],
  [
    'conversion Webhook: service name, namespace, port, path',
    (c) =>
      (c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { namespace: '', name: '', port: 70000, path: 'convert' } },
          conversionReviewVersions: ['v1'],
        },
      }),
    [
      'spec.conversion.webhook.clientConfig.service.name: FieldValueRequired: service name is required',
      'spec.conversion.webhook.clientConfig.service.namespace: FieldValueRequired: service namespace is required',
      'spec.conversion.webhook.clientConfig.service.port: FieldValueInvalid: port is not valid: must be between 1 and 65535, inclusive',
      "spec.conversion.webhook.clientConfig.service.path: FieldValueInvalid: must start with a '/'",
    ],
  ],
  [
    'conversion Webhook: review versions unique labels, one of v1, v1beta1',
    (c) =>
      (c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'https://conv.example.com/convert' },
          conversionReviewVersions: ['v2', 'v2', 'V3'],
        },
      }),
    [
      'spec.conversion.webhook.conversionReviewVersions[1]: FieldValueInvalid: duplicate version',
      `spec.conversion.webhook.conversionReviewVersions[2]: FieldValueInvalid: ${dns1035}`,
      'spec.conversion.webhook.conversionReviewVersions: FieldValueInvalid: must include at least one of v1, v1beta1',
    ],
  ],
  [
    'conversion Webhook: a valid one',
    (c) =>
      (c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { namespace: 'ns', name: 'conv', path: '/convert', port: 443 } },
          conversionReviewVersions: ['v1', 'v1beta1'],
        },
      }),
    [],
  ],
  [
    'conversion None: no webhook settings',
    (c) =>
      (c.spec.conversion = {
        strategy: 'None',
        webhook: {
          clientConfig: { url: 'https://conv.example.com' },
          conversionReviewVersions: ['v1'],
        },
      }),
    [
      'spec.conversion.webhook.clientConfig: FieldValueForbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.webhook.conversionReviewVersions: FieldValueForbidden: should not be set when strategy is not set to Webhook',
    ],
  ],
  [
    'preserveUnknownFields cannot be turned on in v1; conversion then must be None; no defaults',
    (c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.default = 'Fast';
      c.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'https://conv.example.com' },
          conversionReviewVersions: ['v1'],
        },
      };
    },
    [
      'spec.preserveUnknownFields: FieldValueInvalid: must be false in order to use defaults in the schema',
      'spec.conversion.strategy: FieldValueInvalid: must be None if spec.preserveUnknownFields is true',
      'spec.preserveUnknownFields: FieldValueInvalid: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ],
  ],
  [
    'API approval: a protected group (k8s.io, kubernetes.io, orch.io) needs the annotation',
    (c) => {
      c.spec.group = 'widgets.orch.io';
      c.metadata.name = 'crontabs.widgets.orch.io';
    },
    [
      'metadata.annotations[api-approved.kubernetes.io]: FieldValueRequired: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
  ],
  [
    'API approval: a URL or a reason starting with "unapproved"',
    (c) => {
      c.spec.group = 'gateway.networking.k8s.io';
      c.metadata.name = 'crontabs.gateway.networking.k8s.io';
      c.metadata.annotations = { 'api-approved.kubernetes.io': 'yes please' };
    },
    [
      'metadata.annotations[api-approved.kubernetes.io]: FieldValueInvalid: protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved"',
    ],
  ],
  [
    'API approval: approved by a URL, or bypassed',
    (c) => {
      c.spec.group = 'gateway.networking.k8s.io';
      c.metadata.name = 'crontabs.gateway.networking.k8s.io';
      c.metadata.annotations = {
        'api-approved.kubernetes.io': 'https://github.com/kubernetes-sigs/gateway-api/pull/2466',
      };
    },
    [],
  ],
  [
    'storedVersions: at least one',
    (c) => (c.status.storedVersions = []),
    ['status.storedVersions: FieldValueInvalid: must have at least one stored version'],
  ],
  [
    'storedVersions: the storage version among them',
    (c) => {
      c.spec.versions.push({ ...structuredClone(c.spec.versions[0]), name: 'v2', storage: false });
      c.status.storedVersions = ['v2'];
    },
    ['status.storedVersions: FieldValueInvalid: must have the storage version v1'],
  ],
  [
    'storedVersions: a stored version cannot leave spec.versions',
    (c) => (c.status.storedVersions = ['v1', 'v1beta1']),
    [
      'status.storedVersions[1]: FieldValueInvalid: missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
    ],
  ],
  [
    'status.acceptedNames: the same name rules',
    (c) => (c.status.acceptedNames = { plural: 'Bad Name', kind: 'CronTab' }),
    [`status.acceptedNames.plural: FieldValueInvalid: ${dns1035}`],
  ],
];

for (const [name, mutate, want] of rows)
  test(`ValidateCustomResourceDefinition: ${name}`, () => {
    const c = crd();
    mutate(c);
    check(validateCustomResourceDefinition(c as ApiObject), want);
  });

test('ValidateCustomResourceDefinition: every violation is listed at once', () => {
  const c = crd();
  c.spec.scope = '';
  c.spec.names.listKind = 'CronTab';
  c.spec.versions[0].additionalPrinterColumns = [{ name: 'X', type: 'float', jsonPath: '.x' }];
  check(validateCustomResourceDefinition(c as ApiObject), [
    'spec.scope: FieldValueRequired',
    `${v0}.additionalPrinterColumns[0].type: FieldValueInvalid`,
    'spec.names.listKind: FieldValueInvalid: kind and listKind may not be the same',
  ]);
});

test('ValidateCustomResourceDefinition: the schema libraries run on each version schema, defaults and rules only on a structural one', () => {
  const calls: string[] = [];
  const checks: SchemaChecks = {
    structural: (_s, p) => {
      calls.push(`structural ${p.toString()}`);
      return [];
    },
    defaults: (_s, p) => {
      calls.push(`defaults ${p.toString()}`);
      return [fieldInvalid(p.child('default'), 1, 'must not have unknown fields')];
    },
    rules: (_s, p) => {
      calls.push(`rules ${p.toString()}`);
      return [];
    },
  };
  check(validateCustomResourceDefinition(crd() as ApiObject, checks), [
    `${v0}.schema.openAPIV3Schema.default: FieldValueInvalid: must not have unknown fields`,
  ]);
  assert.deepEqual(calls, [
    `structural ${v0}.schema.openAPIV3Schema`,
    `defaults ${v0}.schema.openAPIV3Schema`,
  ]);
  const failing: SchemaChecks = {
    ...checks,
    structural: (_s, p) => [fieldInvalid(newPath('x'), 1, String(p))],
  };
  calls.length = 0;
  check(validateCustomResourceDefinition(crd() as ApiObject, failing), ['x: FieldValueInvalid']);
  assert.deepEqual(calls, []);
});

const established = (c: any): any => {
  c.status.conditions = [{ type: 'Established', status: 'True' }];
  return c;
};

test('ValidateCustomResourceDefinitionUpdate: group and names.plural never change', () => {
  const old = crd();
  const c = crd();
  c.spec.group = 'other.example.com';
  c.spec.names.plural = 'crons';
  c.metadata.name = 'crons.other.example.com';
  check(validateCustomResourceDefinitionUpdate(c as ApiObject, old as ApiObject), [
    'spec.group: FieldValueInvalid: field is immutable',
    'spec.names.plural: FieldValueInvalid: field is immutable',
  ]);
});

test('ValidateCustomResourceDefinitionUpdate: scope and names.kind are immutable once Established', () => {
  const c = crd();
  c.spec.scope = 'Cluster';
  c.spec.names.kind = 'Cron';
  c.spec.names.listKind = 'CronList';
  check(validateCustomResourceDefinitionUpdate(c as ApiObject, crd() as ApiObject), []);
  check(
    validateCustomResourceDefinitionUpdate(
      established(structuredClone(c)) as ApiObject,
      established(crd()) as ApiObject
    ),
    [
      'spec.scope: FieldValueInvalid: field is immutable',
      'spec.names.kind: FieldValueInvalid: field is immutable',
    ]
  );
});

test('ValidateCustomResourceDefinitionUpdate: a version still in storedVersions cannot be removed', () => {
  const old = crd();
  old.spec.versions.push({ ...structuredClone(old.spec.versions[0]), name: 'v2', storage: false });
  const c = structuredClone(old);
  c.spec.versions[1].storage = true;
  c.spec.versions.shift();
  c.status.storedVersions = ['v1', 'v2'];
  check(validateCustomResourceDefinitionUpdate(c as ApiObject, old as ApiObject), [
    'status.storedVersions[0]: FieldValueInvalid: missing from spec.versions; v1 was previously a storage version',
  ]);
});

test('ValidateCustomResourceDefinitionUpdate: an invalid caBundle is refused once Established', () => {
  const c = established(crd());
  c.spec.conversion = {
    strategy: 'Webhook',
    webhook: {
      clientConfig: { url: 'https://conv.example.com', caBundle: 'bm90IGEgY2VydA==' },
      conversionReviewVersions: ['v1'],
    },
  };
  check(validateCustomResourceDefinition(c as ApiObject), []);
  check(validateCustomResourceDefinitionUpdate(c as ApiObject, established(crd()) as ApiObject), [
    'spec.conversion.webhook.clientConfig.caBundle: FieldValueInvalid: must be a PEM encoded CA bundle (no PEM block found)',
  ]);
});

test('ValidateUpdateCustomResourceDefinitionStatus: only acceptedNames', () => {
  const c = crd();
  c.spec.scope = 'nonsense';
  c.status.acceptedNames = { plural: 'crontabs', kind: 'Cron Tab' };
  check(validateCustomResourceDefinitionStatusUpdate(c as ApiObject), [
    'status.acceptedNames.kind: FieldValueInvalid: may have mixed case',
  ]);
});

// The schema checks the strategy makes, from the apiextensions libraries.
const schemaRows: [string, (c: any) => void, string[]][] = [
  ['a structural schema with valid defaults', () => {}, []],
  [
    'structural: type required on a specified field',
    (c) => delete c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.type,
    [
      `${v0}.schema.openAPIV3Schema.properties[spec].properties[size].type: FieldValueRequired: must not be empty for specified object fields`,
    ],
  ],
  [
    'defaults: pruned (no unknown fields)',
    (c) =>
      (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.default = {
        x: 1,
        y: 2,
      }),
    [
      `${v0}.schema.openAPIV3Schema.properties[spec].properties[size].default: FieldValueInvalid: must not have unknown fields`,
    ],
  ],
  [
    'defaults: valid against their schema',
    (c) =>
      (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.default =
        'Medium'),
    [
      `${v0}.schema.openAPIV3Schema.properties[spec].properties[mode].default: FieldValueNotSupported: supported values: "Fast", "Slow"`,
    ],
  ],
  [
    'x-kubernetes-validations: a rule that compiles is accepted',
    (c) =>
      (c.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
        { rule: 'self.replicas >= 0', message: 'replicas must not be negative' },
      ]),
    [],
  ],
  [
    'x-kubernetes-validations: a rule that does not compile names the rule and the position',
    (c) =>
      (c.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
        { rule: 'self.replicas >= "a"' },
      ]),
    [
      `${v0}.schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: FieldValueInvalid: compilation failed: ERROR: <input>:1:`,
    ],
  ],
];
for (const [name, mutate, want] of schemaRows)
  test(`ValidateCustomResourceDefinition with the schema libraries: ${name}`, () => {
    const c = crd();
    mutate(c);
    check(validateCustomResourceDefinition(c as ApiObject, crdSchemaChecks), want);
  });

test('validateAPIApproval on update: an approval state that did not change is never refused', () => {
  const old = crd();
  old.spec.group = 'widgets.orch.io';
  old.metadata.name = 'crontabs.widgets.orch.io';
  const next = structuredClone(old);
  next.spec.versions[0].served = false;
  check(validateCustomResourceDefinitionUpdate(next as ApiObject, old as ApiObject), []);
  next.metadata.annotations = { 'api-approved.kubernetes.io': 'nope' };
  check(validateCustomResourceDefinitionUpdate(next as ApiObject, old as ApiObject), [
    'metadata.annotations[api-approved.kubernetes.io]: FieldValueInvalid',
  ]);
});
