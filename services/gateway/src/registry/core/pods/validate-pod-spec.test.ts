// Table tests of validatePodSpec: a row per rule, named after upstream's TestValidatePodSpec /
// TestValidateContainers / TestValidateVolumes / TestValidateTolerations case it checks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newPath } from '@orch/apimachinery/errors';
import { validatePodSpec } from './validate-pod-spec.js';

const base = (): any => ({
  containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, name: 'http' }] }],
  volumes: [{ name: 'data', emptyDir: {} }],
});

const rows: { name: string; mutate: (s: any) => void; want: string[] }[] = [
  { name: 'valid spec', mutate: () => {}, want: [] },
  {
    name: 'no containers: spec.containers Required',
    mutate: (s) => (s.containers = []),
    want: ['FieldValueRequired spec.containers'],
  },
  {
    name: 'invalid container name (not a DNS label)',
    mutate: (s) => (s.containers[0].name = 'Bad_Name'),
    want: ['FieldValueInvalid spec.containers[0].name'],
  },
  {
    name: 'duplicate name across initContainers and containers',
    mutate: (s) => (s.initContainers = [{ name: 'app', image: 'busybox' }]),
    want: ['FieldValueDuplicate spec.containers[0].name'],
  },
  {
    name: 'empty image',
    mutate: (s) => (s.containers[0].image = ' '),
    want: ['FieldValueRequired spec.containers[0].image'],
  },
  {
    name: 'containerPort out of range',
    mutate: (s) => (s.containers[0].ports[0].containerPort = 70000),
    want: ['FieldValueInvalid spec.containers[0].ports[0].containerPort'],
  },
  {
    name: 'unsupported protocol',
    mutate: (s) => (s.containers[0].ports[0].protocol = 'ICMP'),
    want: ['FieldValueNotSupported spec.containers[0].ports[0].protocol'],
  },
  {
    name: 'duplicate port name',
    mutate: (s) => s.containers[0].ports.push({ containerPort: 81, name: 'http' }),
    want: ['FieldValueDuplicate spec.containers[0].ports[1].name'],
  },
  {
    name: 'env without name',
    mutate: (s) => (s.containers[0].env = [{ value: 'x' }]),
    want: ['FieldValueRequired spec.containers[0].env[0].name'],
  },
  {
    name: 'env valueFrom with two sources',
    mutate: (s) =>
      (s.containers[0].env = [
        {
          name: 'A',
          valueFrom: {
            fieldRef: { fieldPath: 'metadata.name' },
            secretKeyRef: { name: 's', key: 'k' },
          },
        },
      ]),
    want: ['FieldValueInvalid spec.containers[0].env[0].valueFrom'],
  },
  {
    name: 'env valueFrom beside a value',
    mutate: (s) =>
      (s.containers[0].env = [
        { name: 'A', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ]),
    want: ['FieldValueInvalid spec.containers[0].env[0].valueFrom'],
  },
  {
    name: 'envFrom with no source',
    mutate: (s) => (s.containers[0].envFrom = [{ prefix: 'X_' }]),
    want: ['FieldValueInvalid spec.containers[0].envFrom[0]'],
  },
  {
    name: 'volumeMount naming no volume',
    mutate: (s) => (s.containers[0].volumeMounts = [{ name: 'nope', mountPath: '/x' }]),
    want: ['FieldValueNotFound spec.containers[0].volumeMounts[0].name'],
  },
  {
    name: 'volumeMount without mountPath',
    mutate: (s) => (s.containers[0].volumeMounts = [{ name: 'data' }]),
    want: ['FieldValueRequired spec.containers[0].volumeMounts[0].mountPath'],
  },
  {
    name: 'duplicate volume name',
    mutate: (s) => s.volumes.push({ name: 'data', emptyDir: {} }),
    want: ['FieldValueDuplicate spec.volumes[1].name'],
  },
  {
    name: 'volume with no source',
    mutate: (s) => s.volumes.push({ name: 'empty' }),
    want: ['FieldValueRequired spec.volumes[1]'],
  },
  {
    name: 'volume with two sources (upstream reports the later in its order)',
    mutate: (s) => (s.volumes[0].hostPath = { path: '/tmp' }),
    want: ['FieldValueForbidden spec.volumes[0].emptyDir'],
  },
  {
    name: 'requests above limits',
    mutate: (s) => (s.containers[0].resources = { limits: { cpu: '1' }, requests: { cpu: '2' } }),
    want: ['FieldValueInvalid spec.containers[0].resources.requests[cpu]'],
  },
  {
    name: 'invalid quantity',
    mutate: (s) => (s.containers[0].resources = { limits: { memory: 'lots' } }),
    want: ['FieldValueInvalid spec.containers[0].resources.limits[memory]'],
  },
  {
    name: 'probe with no handler',
    mutate: (s) => (s.containers[0].livenessProbe = { periodSeconds: 5 }),
    want: ['FieldValueRequired spec.containers[0].livenessProbe'],
  },
  {
    name: 'probe with two handlers',
    mutate: (s) =>
      (s.containers[0].readinessProbe = {
        exec: { command: ['true'] },
        tcpSocket: { port: 80 },
      }),
    want: ['FieldValueForbidden spec.containers[0].readinessProbe.tcpSocket'],
  },
  {
    name: 'probe with negative period',
    mutate: (s) =>
      (s.containers[0].readinessProbe = { exec: { command: ['x'] }, periodSeconds: -1 }),
    want: ['FieldValueInvalid spec.containers[0].readinessProbe.periodSeconds'],
  },
  {
    name: 'unsupported dnsPolicy',
    mutate: (s) => (s.dnsPolicy = 'Sometimes'),
    want: ['FieldValueNotSupported spec.dnsPolicy'],
  },
  {
    name: 'invalid nodeSelector key',
    mutate: (s) => (s.nodeSelector = { 'bad key!': 'x' }),
    want: ['FieldValueInvalid spec.nodeSelector'],
  },
  {
    name: 'toleration Exists with a value',
    mutate: (s) => (s.tolerations = [{ key: 'k', operator: 'Exists', value: 'v' }]),
    want: ['FieldValueInvalid spec.tolerations[0].operator'],
  },
  {
    name: 'toleration with empty key and Equal',
    mutate: (s) => (s.tolerations = [{ operator: 'Equal', value: 'v' }]),
    want: ['FieldValueInvalid spec.tolerations[0].operator'],
  },
  {
    name: 'toleration tolerationSeconds without NoExecute',
    mutate: (s) =>
      (s.tolerations = [
        { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 },
      ]),
    want: ['FieldValueInvalid spec.tolerations[0].effect'],
  },
  {
    name: 'toleration unsupported effect',
    mutate: (s) => (s.tolerations = [{ key: 'k', operator: 'Exists', effect: 'Maybe' }]),
    want: ['FieldValueNotSupported spec.tolerations[0].effect'],
  },
  {
    name: 'negative terminationGracePeriodSeconds',
    mutate: (s) => (s.terminationGracePeriodSeconds = -1),
    want: ['FieldValueInvalid spec.terminationGracePeriodSeconds'],
  },
  {
    name: 'activeDeadlineSeconds of 0',
    mutate: (s) => (s.activeDeadlineSeconds = 0),
    want: ['FieldValueInvalid spec.activeDeadlineSeconds'],
  },
  {
    name: 'every violation listed together',
    mutate: (s) => {
      s.containers[0].image = '';
      s.dnsPolicy = 'x';
      s.activeDeadlineSeconds = -5;
    },
    want: [
      'FieldValueRequired spec.containers[0].image',
      'FieldValueNotSupported spec.dnsPolicy',
      'FieldValueInvalid spec.activeDeadlineSeconds',
    ],
  },
];

describe('validatePodSpec (upstream ValidatePodSpec)', () => {
  for (const row of rows) {
    it(row.name, () => {
      const spec = base();
      row.mutate(spec);
      const got = validatePodSpec(spec, newPath('spec')).map((e) => `${e.type} ${e.field}`);
      assert.deepEqual(got, row.want);
    });
  }
});
