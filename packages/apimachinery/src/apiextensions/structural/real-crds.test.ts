// The structural-schema library over two published CRDs (e2e/fixtures/crds): cert-manager's
// certificates.cert-manager.io and Prometheus Operator's servicemonitors.monitoring.coreos.com.
// Both schemas are structural, a realistic object of each prunes nothing, defaults and validates,
// and a bad one lists the errors upstream reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fieldErrorMessage, newPath } from '../../errors/index.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';
import {
  applyDefaults,
  pruneObject,
  validateCustomResource,
  validateDefaults,
  validateStructuralSchema,
} from '../index.js';

function loadCRD(file: string): CustomResourceDefinition {
  const url = new URL(`../../../../../e2e/fixtures/crds/${file}`, import.meta.url);
  return parse(readFileSync(url, 'utf8')) as CustomResourceDefinition;
}

function schemaOf(crd: CustomResourceDefinition): JSONSchemaProps {
  return crd.spec.versions[0]!.schema!.openAPIV3Schema!;
}

const certificates = loadCRD('certificates.cert-manager.io.yaml');
const serviceMonitors = loadCRD('servicemonitors.monitoring.coreos.com.yaml');

function certificate(): Record<string, any> {
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name: 'example-com', namespace: 'sandbox' },
    spec: {
      secretName: 'example-com-tls',
      duration: '2160h',
      renewBefore: '360h',
      subject: { organizations: ['jetstack'] },
      commonName: 'example.com',
      isCA: false,
      privateKey: { algorithm: 'RSA', encoding: 'PKCS1', size: 2048, rotationPolicy: 'Always' },
      usages: ['server auth', 'client auth'],
      dnsNames: ['example.com', 'www.example.com'],
      uris: ['spiffe://cluster.local/ns/sandbox/sa/example'],
      ipAddresses: ['192.168.0.5'],
      issuerRef: { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' },
      revisionHistoryLimit: 3,
    },
  };
}

function serviceMonitor(): Record<string, any> {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'example-app', namespace: 'default', labels: { team: 'frontend' } },
    spec: {
      selector: { matchLabels: { app: 'example-app' } },
      namespaceSelector: { matchNames: ['default'] },
      endpoints: [
        {
          port: 'web',
          interval: '30s',
          scrapeTimeout: '10s',
          scheme: 'https',
          path: '/metrics',
          honorLabels: true,
          tlsConfig: { insecureSkipVerify: true },
          relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_name'], targetLabel: 'pod' }],
        },
        { targetPort: 8080, interval: '1m' },
      ],
      sampleLimit: 10000,
    },
  };
}

for (const [name, crd] of [
  ['certificates.cert-manager.io', certificates],
  ['servicemonitors.monitoring.coreos.com', serviceMonitors],
] as const) {
  test(`${name}: every version's schema is structural, its defaults valid`, () => {
    assert.equal(crd.apiVersion, 'apiextensions.orch.io/v1');
    for (const [i, v] of crd.spec.versions.entries()) {
      const errs = validateStructuralSchema(
        v.schema!.openAPIV3Schema!,
        newPath('spec', `versions[${i}]`, 'schema', 'openAPIV3Schema')
      );
      assert.deepEqual(errs.map(fieldErrorMessage), []);
      const defaults = validateDefaults(
        v.schema!.openAPIV3Schema!,
        newPath('spec', `versions[${i}]`, 'schema', 'openAPIV3Schema')
      );
      assert.deepEqual(defaults.map(fieldErrorMessage), []);
    }
  });
}

test('certificates.cert-manager.io: a realistic Certificate prunes nothing and validates', () => {
  const obj = certificate();
  const before = structuredClone(obj);
  assert.deepEqual(pruneObject(obj, schemaOf(certificates), { isResourceRoot: true }), []);
  applyDefaults(obj, schemaOf(certificates));
  assert.deepEqual(obj, before);
  assert.deepEqual(validateCustomResource(obj, schemaOf(certificates)).map(fieldErrorMessage), []);
});

test('certificates.cert-manager.io: a bad Certificate lists its errors, unknown fields pruned', () => {
  const obj = certificate();
  delete obj.spec.secretName;
  delete obj.spec.issuerRef.name;
  obj.spec.privateKey.algorithm = 'DSA';
  obj.spec.privateKey.size = '2048';
  obj.spec.isCA = 'yes';
  obj.spec.dnsNames = 'example.com';
  obj.spec.extra = { a: 1 };
  obj.spec.subject.country = ['NL'];
  obj.metadata.whatever = 'kept: metadata is not pruned here';
  const pruned = pruneObject(obj, schemaOf(certificates), { isResourceRoot: true });
  assert.deepEqual(pruned, ['spec.extra', 'spec.subject.country']);
  assert.equal(obj.metadata.whatever, 'kept: metadata is not pruned here');
  const errs = validateCustomResource(obj, schemaOf(certificates)).map(fieldErrorMessage);
  assert.deepEqual(errs.sort(), [
    'spec.dnsNames: Invalid value: "string": spec.dnsNames in body must be of type array: "string"',
    'spec.isCA: Invalid value: "string": spec.isCA in body must be of type boolean: "string"',
    'spec.issuerRef.name: Required value',
    'spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"',
    'spec.privateKey.size: Invalid value: "string": spec.privateKey.size in body must be of type integer: "string"',
    'spec.secretName: Required value',
  ]);
});

test('servicemonitors.monitoring.coreos.com: a realistic ServiceMonitor prunes nothing and validates', () => {
  const obj = serviceMonitor();
  assert.deepEqual(pruneObject(obj, schemaOf(serviceMonitors), { isResourceRoot: true }), []);
  applyDefaults(obj, schemaOf(serviceMonitors));
  // The relabeling's action has a schema default.
  assert.equal(obj.spec.endpoints[0].relabelings[0].action, 'replace');
  assert.deepEqual(
    validateCustomResource(obj, schemaOf(serviceMonitors)).map(fieldErrorMessage),
    []
  );
});

test('servicemonitors.monitoring.coreos.com: a bad ServiceMonitor lists its errors', () => {
  const obj = serviceMonitor();
  delete obj.spec.selector;
  obj.spec.endpoints[0].scheme = 'ftp';
  obj.spec.endpoints[0].interval = '30 seconds';
  obj.spec.endpoints[1].targetPort = true;
  obj.spec.endpoints[1].unknownField = 'x';
  obj.spec.sampleLimit = -1;
  const pruned = pruneObject(obj, schemaOf(serviceMonitors), { isResourceRoot: true });
  assert.deepEqual(pruned, ['spec.endpoints[1].unknownField']);
  const errs = validateCustomResource(obj, schemaOf(serviceMonitors)).map(fieldErrorMessage);
  const interval = schemaOf(serviceMonitors).properties!.spec!.properties!.endpoints!
    .items as JSONSchemaProps;
  assert.deepEqual(errs.sort(), [
    '<nil>: Invalid value: "": "spec.endpoints[1].targetPort" must validate at least one schema (anyOf)',
    `spec.endpoints[0].interval: Invalid value: "30 seconds": spec.endpoints[0].interval in body should match '${interval.properties!.interval!.pattern}'`,
    'spec.endpoints[0].scheme: Unsupported value: "ftp": supported values: "http", "https", "HTTP", "HTTPS"',
    'spec.endpoints[1].targetPort: Invalid value: "boolean": spec.endpoints[1].targetPort in body must be of type integer,string: "boolean"',
    'spec.endpoints[1].targetPort: Invalid value: "boolean": spec.endpoints[1].targetPort in body must be of type integer: "boolean"',
    'spec.sampleLimit: Invalid value: -1: spec.sampleLimit in body should be greater than or equal to 0',
    'spec.selector: Required value',
  ]);
});
