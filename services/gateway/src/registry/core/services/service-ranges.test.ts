// The ranges of --service-cluster-ip-range and --service-node-port-range (upstream's
// ipallocator range arithmetic, calculateRangeOffset and PortRange), and the strategy's
// validation rows (ValidateService / ValidateServiceUpdate), as tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { parseServiceRanges } from './parse-service-ranges.js';
import { CidrRange, PortRange, dynamicOffset } from './service-ranges.js';
import { serviceStrategy, validateService, validateServiceUpdate } from './strategy.js';

test('an IPv4 /24 has 254 usable addresses, from .1 to .254', () => {
  const r = CidrRange.parse('10.0.0.0/24');
  assert.equal(r.size, 254);
  assert.equal(r.ipAt(0), '10.0.0.1');
  assert.equal(r.ipAt(253), '10.0.0.254');
  assert.equal(r.offsetOf('10.0.0.1'), 0);
  assert.equal(r.offsetOf('10.0.0.0'), undefined, 'the network address');
  assert.equal(r.offsetOf('10.0.0.255'), undefined, 'the broadcast address');
  assert.equal(r.offsetOf('10.0.1.1'), undefined);
  assert.equal(r.offsetOf('fd00::1'), undefined, 'another family');
});

test('a CIDR with host bits is taken as its network', () => {
  assert.equal(CidrRange.parse('10.0.0.7/24').text, '10.0.0.0/24');
});

test('IPv6: the subnet-router address is skipped; at most 2^16 addresses', () => {
  const r = CidrRange.parse('fd00:10:96::/112');
  assert.equal(r.family, 'IPv6');
  assert.equal(r.size, 65535);
  assert.equal(r.ipAt(0), 'fd00:10:96::1');
  assert.equal(r.offsetOf('fd00:10:96::ff'), 254);
  assert.equal(CidrRange.parse('fd00::/64').size, 65536);
});

for (const bad of ['10.0.0.0', '10.0.0.0/33', 'x/8', '10.0.0.0/32', '']) {
  test(`not a usable CIDR: ${JSON.stringify(bad)}`, () => {
    assert.throws(() => CidrRange.parse(bad));
  });
}

test('port ranges: from-to (both included) and base+size', () => {
  const r = PortRange.parse('30000-32767');
  assert.equal(r.size, 2768);
  assert.equal(r.offsetOf(30000), 0);
  assert.equal(r.offsetOf(32767), 2767);
  assert.equal(r.offsetOf(32768), undefined);
  assert.equal(PortRange.parse('30000+10').text, '30000-30010');
  assert.throws(() => PortRange.parse('32767-30000'));
  assert.throws(() => PortRange.parse('0-10'));
  assert.throws(() => PortRange.parse('30000-70000'));
});

test('calculateRangeOffset: the lower band kept for requested values', () => {
  assert.equal(dynamicOffset(8), 0);
  assert.equal(dynamicOffset(254), 16);
  assert.equal(dynamicOffset(1022), 63);
  assert.equal(dynamicOffset(65534), 256);
});

test('flags: one or two CIDRs of different families', () => {
  assert.equal(parseServiceRanges('10.0.0.0/24,fd00::/108').clusterIPs.length, 2);
  assert.throws(() => parseServiceRanges('10.0.0.0/24,10.1.0.0/24'), /different IP family/);
  assert.throws(() => parseServiceRanges('a,b,c'));
  assert.throws(() => parseServiceRanges('10.0.0.0/24', '1-2-3'), /--service-node-port-range/);
});

const svc = (spec: Record<string, unknown>): ApiObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec }) as ApiObject;

const prepared = (spec: Record<string, unknown>): ApiObject => {
  const o = svc(spec);
  serviceStrategy.prepareForCreate(o);
  return o;
};

const rows: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
  { name: 'a plain ClusterIP service', spec: { ports: [{ port: 80 }] }, want: [] },
  { name: 'ports are required', spec: {}, want: ['spec.ports: Required value'] },
  { name: 'a headless service needs no port', spec: { clusterIP: 'None' }, want: [] },
  {
    name: 'two ports need names',
    spec: { ports: [{ port: 80 }, { port: 81 }] },
    want: ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'],
  },
  {
    name: 'port out of range',
    spec: { ports: [{ port: 70000 }] },
    want: [
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ],
  },
  {
    name: 'unknown protocol',
    spec: { ports: [{ port: 80, protocol: 'ICMP' }] },
    want: [
      'spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
    ],
  },
  {
    name: 'unknown type',
    spec: { type: 'Magic', ports: [{ port: 80 }] },
    want: [
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "NodePort", "LoadBalancer", "ExternalName"',
    ],
  },
  {
    name: 'nodePort on a ClusterIP service',
    spec: { ports: [{ port: 80, nodePort: 30001 }] },
    want: ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
  },
  {
    name: 'clusterIPs[0] must match clusterIP',
    spec: { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.6'], ports: [{ port: 80 }] },
    want: ['spec.clusterIPs: Invalid value: ["10.0.0.6"]: first value must match `clusterIP`'],
  },
  {
    name: 'ExternalName needs externalName',
    spec: { type: 'ExternalName' },
    want: ['spec.externalName: Required value'],
  },
  {
    name: 'headless NodePort',
    spec: { type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] },
    want: [
      'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services',
    ],
  },
  {
    name: 'externalTrafficPolicy on ClusterIP',
    spec: { externalTrafficPolicy: 'Local', ports: [{ port: 80 }] },
    want: [
      "spec.externalTrafficPolicy: Invalid value: \"Local\": may only be set when `type` is 'NodePort' or 'LoadBalancer'",
    ],
  },
];

/** A field error as upstream prints it. */
const text = (e: { field?: string; type?: string; message?: string; value?: unknown }): string => {
  const kind: Record<string, string> = {
    FieldValueRequired: 'Required value',
    FieldValueInvalid: 'Invalid value',
    FieldValueForbidden: 'Forbidden',
    FieldValueNotSupported: 'Unsupported value',
    FieldValueDuplicate: 'Duplicate value',
  };
  const label = kind[e.type ?? ''] ?? e.type;
  const value = 'value' in e && e.value !== undefined ? `: ${JSON.stringify(e.value)}` : '';
  return `${e.field}: ${label}${value}${e.message ? `: ${e.message}` : ''}`;
};

for (const row of rows) {
  test(`ValidateService: ${row.name}`, () => {
    assert.deepEqual(validateService(prepared(row.spec)).map(text), row.want);
  });
}

test('prepareForCreate: clusterIP and clusterIPs follow each other; defaults as SetDefaults_Service', () => {
  const a = prepared({ clusterIP: '10.0.0.5', ports: [{ port: 80 }] });
  assert.deepEqual((a['spec'] as Record<string, unknown>)['clusterIPs'], ['10.0.0.5']);
  const b = prepared({ clusterIPs: ['10.0.0.6'], type: 'LoadBalancer', ports: [{ port: 80 }] });
  const s = b['spec'] as Record<string, unknown>;
  assert.equal(s['clusterIP'], '10.0.0.6');
  assert.equal(s['externalTrafficPolicy'], 'Cluster');
  assert.equal(s['allocateLoadBalancerNodePorts'], true);
  assert.equal(s['internalTrafficPolicy'], 'Cluster');
  assert.equal((s['ports'] as { targetPort: number }[])[0]?.targetPort, 80);
});

test('ValidateServiceUpdate: an allocated address may not change; moving to ExternalName may drop it', () => {
  const old = prepared({ clusterIP: '10.0.0.5', ports: [{ port: 80 }] });
  const changed = svc({ clusterIP: '10.0.0.9', clusterIPs: ['10.0.0.9'], ports: [{ port: 80 }] });
  serviceStrategy.prepareForUpdate(changed, old);
  assert.deepEqual(validateServiceUpdate(changed, old).map(text), [
    'spec.clusterIPs[0]: Invalid value: ["10.0.0.9"]: may not change once set',
  ]);
  const ext = svc({ type: 'ExternalName', externalName: 'db.example.com', ports: [{ port: 80 }] });
  serviceStrategy.prepareForUpdate(ext, old);
  assert.deepEqual(validateServiceUpdate(ext, old), []);
  assert.equal((ext['spec'] as Record<string, unknown>)['clusterIP'], undefined);
});
