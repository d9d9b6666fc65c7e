// networking.orch.io/v1 strategies as table tests, each row naming the upstream rule
// (k8s pkg/apis/networking/validation ValidateIngressCreate / ValidateIngressSpec /
// validateIngressBackend, ValidateIngressClass(Update), ValidateNetworkPolicySpec).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ingressStrategy, validateIngress } from './ingresses/strategy.js';
import { ingressClassStrategy, validateIngressClass } from './ingressclasses/strategy.js';
import { defaultPolicyTypes, validateNetworkPolicy } from './networkpolicies/strategy.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
/** Each wanted entry is the start of the error at its position. */
function check(errs: FieldError[], want: string[]): void {
  const got = fmt(errs);
  assert.equal(got.length, want.length, got.join('\n'));
  got.forEach((g, i) => assert.ok(g.startsWith(want[i]!), `${g}\n  wanted ${want[i]!}`));
}

const svc = (port: Record<string, unknown> = { number: 80 }) => ({
  service: { name: 'web', port },
});
const ing = (spec: Record<string, unknown>, annotations?: Record<string, string>): ApiObject => ({
  metadata: { name: 'i', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec,
});
const rule = (path: Record<string, unknown>, host = 'web.example.com') => ({
  host,
  http: { paths: [{ backend: svc(), ...path }] },
});

const ingressRows: [string, ApiObject, string[]][] = [
  ['a default backend alone', ing({ defaultBackend: svc() }), []],
  [
    'either defaultBackend or rules',
    ing({}),
    ['spec: FieldValueInvalid: either `defaultBackend` or `rules` must be specified'],
  ],
  [
    'validateIngressBackend: not both resource and service',
    ing({ defaultBackend: { ...svc(), resource: { kind: 'Bucket', name: 'b' } } }),
    ['spec.defaultBackend: FieldValueInvalid: cannot set both resource and service backends'],
  ],
  [
    'validateIngressBackend: a port name or number',
    ing({ defaultBackend: svc({}) }),
    ['spec.defaultBackend: FieldValueRequired: port name or number is required'],
  ],
  [
    'validateIngressBackend: not both port name and number',
    ing({ defaultBackend: svc({ name: 'http', number: 80 }) }),
    ['spec.defaultBackend: FieldValueInvalid: cannot set both port name & port number'],
  ],
  [
    'validateIngressBackend: IsValidPortNum',
    ing({ defaultBackend: svc({ number: 70000 }) }),
    [
      'spec.defaultBackend.service.port.number: FieldValueInvalid: must be between 1 and 65535, inclusive',
    ],
  ],
  [
    'validateIngressBackend: a service or resource',
    ing({ defaultBackend: {} }),
    ['spec.defaultBackend: FieldValueInvalid: resource or service backend is required'],
  ],
  [
    'rules[].host: not an IP',
    ing({ rules: [rule({ path: '/', pathType: 'Prefix' }, '10.1.2.3')] }),
    ['spec.rules[0].host: FieldValueInvalid: must be a DNS name, not an IP address'],
  ],
  [
    'rules[].host: a wildcard is allowed',
    ing({ rules: [rule({ path: '/', pathType: 'Prefix' }, '*.example.com')] }),
    [],
  ],
  [
    'rules[].host: a DNS subdomain',
    ing({ rules: [rule({ path: '/', pathType: 'Prefix' }, 'Web_Host')] }),
    ['spec.rules[0].host: FieldValueInvalid'],
  ],
  [
    'paths[].pathType: required',
    ing({ rules: [rule({ path: '/' })] }),
    ['spec.rules[0].http.paths[0].pathType: FieldValueRequired: pathType must be specified'],
  ],
  [
    'paths[].pathType: supported values',
    ing({ rules: [rule({ path: '/', pathType: 'Regex' })] }),
    [
      'spec.rules[0].http.paths[0].pathType: FieldValueNotSupported: supported values: "Exact", "ImplementationSpecific", "Prefix"',
    ],
  ],
  [
    'paths[].path: absolute for Prefix',
    ing({ rules: [rule({ path: 'api', pathType: 'Prefix' })] }),
    ['spec.rules[0].http.paths[0].path: FieldValueInvalid: must be an absolute path'],
  ],
  [
    "paths[].path: no '//'",
    ing({ rules: [rule({ path: '/a//b', pathType: 'Exact' })] }),
    ["spec.rules[0].http.paths[0].path: FieldValueInvalid: must not contain '//'"],
  ],
  [
    "paths[].path: not ending '/..'",
    ing({ rules: [rule({ path: '/a/..', pathType: 'Exact' })] }),
    ["spec.rules[0].http.paths[0].path: FieldValueInvalid: cannot end with '/..'"],
  ],
  [
    'paths[].path: ImplementationSpecific may be empty',
    ing({ rules: [rule({ pathType: 'ImplementationSpecific' })] }),
    [],
  ],
  [
    'http.paths: required',
    ing({ rules: [{ host: 'a.example.com', http: { paths: [] } }] }),
    ['spec.rules[0].http.paths: FieldValueRequired'],
  ],
  [
    'the class in the field or the annotation, not both',
    ing(
      { ingressClassName: 'nginx', defaultBackend: svc() },
      { 'kubernetes.io/ingress.class': 'nginx' }
    ),
    [
      'metadata.annotations[kubernetes.io/ingress.class]: FieldValueInvalid: can not be set when the class field is also set',
    ],
  ],
];
for (const [name, obj, want] of ingressRows)
  test(`ValidateIngressCreate, ${name}`, () => check(validateIngress(obj), want));

test('ValidateIngressStatusUpdate: load balancer ingress IPs and hostnames', () => {
  const old = ing({ defaultBackend: svc() });
  const next = {
    ...old,
    status: { loadBalancer: { ingress: [{ ip: '300.1.1.1' }, { hostname: '10.0.0.1' }] } },
  };
  check(ingressStrategy.validateUpdate(next, old), [
    'status.loadBalancer.ingress[0].ip: FieldValueInvalid: must be a valid IP address',
    'status.loadBalancer.ingress[1].hostname: FieldValueInvalid: must be a DNS name, not an IP address',
  ]);
});

const ic = (spec: Record<string, unknown>): ApiObject => ({ metadata: { name: 'nginx' }, spec });
const icRows: [string, ApiObject, string[]][] = [
  [
    'a valid class',
    ic({
      controller: 'example.com/ingress',
      parameters: { kind: 'P', name: 'p', scope: 'Cluster' },
    }),
    [],
  ],
  ['controller: required', ic({}), ['spec.controller: FieldValueRequired']],
  [
    'controller: domain-prefixed path',
    ic({ controller: 'nginx' }),
    ['spec.controller: FieldValueInvalid: must be a domain-prefixed path (such as "acme.io/foo")'],
  ],
  [
    'controller: at most 250 characters',
    ic({ controller: `example.com/${'x'.repeat(250)}` }),
    ['spec.controller: FieldValueTooLong: may not be more than 250 bytes'],
  ],
  [
    "parameters: scope 'Namespace' needs a namespace",
    ic({ controller: 'example.com/i', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } }),
    ["spec.parameters.namespace: FieldValueRequired: `parameters.scope` is set to 'Namespace'"],
  ],
  [
    "parameters: scope 'Cluster' forbids a namespace",
    ic({
      controller: 'example.com/i',
      parameters: { kind: 'P', name: 'p', scope: 'Cluster', namespace: 'x' },
    }),
    ["spec.parameters.namespace: FieldValueForbidden: `parameters.scope` is set to 'Cluster'"],
  ],
  [
    'parameters: kind and name',
    ic({ controller: 'example.com/i', parameters: { scope: 'Cluster' } }),
    ['spec.parameters.kind: FieldValueRequired', 'spec.parameters.name: FieldValueRequired'],
  ],
];
for (const [name, obj, want] of icRows)
  test(`ValidateIngressClass, ${name}`, () => check(validateIngressClass(obj), want));

test('ValidateIngressClassUpdate: the controller is immutable', () => {
  check(
    ingressClassStrategy.validateUpdate(
      ic({ controller: 'example.com/b' }),
      ic({ controller: 'example.com/a' })
    ),
    ['spec.controller: FieldValueInvalid: field is immutable']
  );
});

const np = (spec: Record<string, unknown>): ApiObject => ({
  metadata: { name: 'np', namespace: 'default' },
  spec: { podSelector: {}, ...spec },
});
const npRows: [string, ApiObject, string[]][] = [
  ['an empty podSelector selects all pods', np({}), []],
  [
    'ports: protocol',
    np({ ingress: [{ ports: [{ protocol: 'ICMP' }] }] }),
    [
      'spec.ingress[0].ports[0].protocol: FieldValueNotSupported: supported values: "SCTP", "TCP", "UDP"',
    ],
  ],
  [
    'ports: endPort at least port',
    np({ ingress: [{ ports: [{ port: 90, endPort: 80 }] }] }),
    [
      'spec.ingress[0].ports[0].endPort: FieldValueInvalid: must be greater than or equal to `port`',
    ],
  ],
  [
    'ports: endPort needs a numeric port',
    np({ egress: [{ ports: [{ port: 'http', endPort: 80 }] }] }),
    [
      'spec.egress[0].ports[0].endPort: FieldValueInvalid: may not be specified when `port` is non-numeric',
    ],
  ],
  [
    'ports: a named port is an IANA_SVC_NAME',
    np({ ingress: [{ ports: [{ port: 'HTTP' }] }] }),
    [
      'spec.ingress[0].ports[0].port: FieldValueInvalid: must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.ingress[0].ports[0].port: FieldValueInvalid: must contain at least one letter (a-z)',
    ],
  ],
  [
    'peers: at least one field',
    np({ ingress: [{ from: [{}] }] }),
    ['spec.ingress[0].from[0]: FieldValueRequired: must specify a peer'],
  ],
  [
    'peers: ipBlock alone',
    np({ ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] }),
    ['spec.ingress[0].from[0]: FieldValueForbidden: may not specify both ipBlock and another peer'],
  ],
  [
    'ipBlock: a valid CIDR',
    np({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] }),
    [
      'spec.egress[0].to[0].ipBlock.cidr: FieldValueInvalid: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ],
  ],
  [
    'policyTypes: supported values',
    np({ policyTypes: ['Ingress', 'Both'] }),
    ['spec.policyTypes[1]: FieldValueNotSupported: supported values: "Ingress", "Egress"'],
  ],
  [
    'policyTypes: at most two',
    np({ policyTypes: ['Ingress', 'Egress', 'Ingress'] }),
    ['spec.policyTypes: FieldValueInvalid: may not specify more than two policyTypes'],
  ],
];
for (const [name, obj, want] of npRows)
  test(`ValidateNetworkPolicySpec, ${name}`, () => check(validateNetworkPolicy(obj), want));

test('SetDefaults_NetworkPolicy: policyTypes Ingress, plus Egress with egress rules; given ones kept', () => {
  const a = np({});
  defaultPolicyTypes(a);
  assert.deepEqual((a['spec'] as { policyTypes: string[] }).policyTypes, ['Ingress']);
  const b = np({ egress: [{}] });
  defaultPolicyTypes(b);
  assert.deepEqual((b['spec'] as { policyTypes: string[] }).policyTypes, ['Ingress', 'Egress']);
  const c = np({ policyTypes: ['Egress'] });
  defaultPolicyTypes(c);
  assert.deepEqual((c['spec'] as { policyTypes: string[] }).policyTypes, ['Egress']);
});
