// The validation of the core kinds that run or point at pods (ReplicationControllers,
// PodTemplates, Endpoints) as table tests: each row a realistic object (from
// @orch/apimachinery's realistic objects) with one change, and the field errors upstream's
// validation answers for it (field path, type, message); the strategies are the provider's.
import { realisticObjects } from '@orch/apimachinery/testdata';
import type { ApiObject } from '@orch/apimachinery/meta';
import { coreProvider } from './rest-storage-provider.js';
import { testStrategyRows } from '../strategy-test-kit.js';
import type { StrategyRow } from '../strategy-test-kit.js';

const obj = (key: string, change: (o: any) => void = () => {}): ApiObject => {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.uid ??= 'uid-1';
  change(o);
  return o as ApiObject;
};

const rc = 'v1/ReplicationController';

const rows: StrategyRow[] = [
  ['valid ReplicationController', '/replicationcontrollers', obj(rc), []],
  ['valid PodTemplate', '/podtemplates', obj('v1/PodTemplate'), []],
  ['valid Endpoints', '/endpoints', obj('v1/Endpoints'), []],
  // ReplicationController
  [
    'ReplicationController: empty selector, restart policy OnFailure',
    '/replicationcontrollers',
    obj(rc, (o) => {
      o.spec.selector = {};
      o.spec.template.spec.restartPolicy = 'OnFailure';
    }),
    [
      'spec.selector: FieldValueRequired',
      'spec.template.spec.restartPolicy: FieldValueNotSupported: supported values: "Always"',
    ],
  ],
  [
    'ReplicationController: the selector does not match the template',
    '/replicationcontrollers',
    obj(rc, (o) => (o.spec.selector = { app: 'other' })),
    [
      'spec.template.metadata.labels: FieldValueInvalid: `selector` does not match template `labels`',
    ],
  ],
  [
    'ReplicationController status: ready above replicas',
    '/replicationcontrollers',
    obj(rc, (o) => (o.status.readyReplicas = 4)),
    ['status.readyReplicas: FieldValueInvalid: cannot be greater than status.replicas'],
    obj(rc),
  ],
  // Endpoints
  [
    'Endpoints: loopback address, an unnamed port among two, a bad protocol',
    '/endpoints',
    obj('v1/Endpoints', (o) => {
      o.subsets[0].addresses[1].ip = '127.0.0.1';
      delete o.subsets[0].ports[1].name;
      o.subsets[0].ports[0].protocol = 'HTTP';
    }),
    [
      'subsets[0].addresses[1].ip: FieldValueInvalid: may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].ports[0].protocol: FieldValueNotSupported: supported values: "SCTP", "TCP", "UDP"',
      'subsets[0].ports[1].name: FieldValueRequired',
    ],
  ],
  [
    'Endpoints: a subset without addresses, a port out of range',
    '/endpoints',
    obj('v1/Endpoints', (o) => (o.subsets = [{ ports: [{ port: 70000, protocol: 'TCP' }] }])),
    [
      'subsets[0]: FieldValueRequired: must specify `addresses` or `notReadyAddresses`',
      'subsets[0].ports[0].port: FieldValueInvalid: must be between 1 and 65535, inclusive',
    ],
  ],
];

testStrategyRows(coreProvider(), rows);
