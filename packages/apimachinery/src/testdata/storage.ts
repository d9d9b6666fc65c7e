// Realistic objects of storage.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { meta } from './helpers.js';

export const storageObjects: Record<string, Record<string, unknown>> = {
  'storage.orch.io/v1/StorageClass': {
    apiVersion: 'storage.orch.io/v1',
    kind: 'StorageClass',
    metadata: {
      ...meta('fast'),
      annotations: { 'storageclass.orch.io/is-default-class': 'true' },
    },
    provisioner: 'csi.example.com',
    parameters: { type: 'ssd', 'csi.storage.k8s.io/fstype': 'ext4' },
    reclaimPolicy: 'Retain',
    mountOptions: ['noatime'],
    allowVolumeExpansion: true,
    volumeBindingMode: 'WaitForFirstConsumer',
    allowedTopologies: [
      {
        matchLabelExpressions: [
          { key: 'topology.kubernetes.io/zone', values: ['zone-a', 'zone-b'] },
        ],
      },
    ],
  },
  'storage.orch.io/v1/CSIDriver': {
    apiVersion: 'storage.orch.io/v1',
    kind: 'CSIDriver',
    metadata: meta('csi.example.com'),
    spec: {
      attachRequired: true,
      podInfoOnMount: false,
      volumeLifecycleModes: ['Persistent', 'Ephemeral'],
      storageCapacity: true,
      fsGroupPolicy: 'File',
      tokenRequests: [{ audience: 'vault', expirationSeconds: 3600 }],
      requiresRepublish: false,
      seLinuxMount: false,
    },
  },
  'storage.orch.io/v1/CSINode': {
    apiVersion: 'storage.orch.io/v1',
    kind: 'CSINode',
    metadata: meta('node-1'),
    spec: {
      drivers: [
        {
          name: 'csi.example.com',
          nodeID: 'i-0123456789',
          topologyKeys: ['topology.kubernetes.io/zone'],
          allocatable: { count: 25 },
        },
      ],
    },
  },
  'storage.orch.io/v1/VolumeAttachment': {
    apiVersion: 'storage.orch.io/v1',
    kind: 'VolumeAttachment',
    metadata: meta('csi-0123456789abcdef'),
    spec: {
      attacher: 'csi.example.com',
      source: { persistentVolumeName: 'pv-data-0' },
      nodeName: 'node-1',
    },
    status: {
      attached: true,
      attachmentMetadata: { devicePath: '/dev/xvdba' },
      detachError: { time: '2024-05-01T10:01:00Z', message: 'timed out', errorCode: 4 },
    },
  },
  'storage.orch.io/v1/CSIStorageCapacity': {
    apiVersion: 'storage.orch.io/v1',
    kind: 'CSIStorageCapacity',
    metadata: meta('csisc-7x2kq', 'orch-system'),
    nodeTopology: { matchLabels: { 'topology.kubernetes.io/zone': 'zone-a' } },
    storageClassName: 'fast',
    capacity: '500Gi',
    maximumVolumeSize: '100Gi',
  },
  'storage.orch.io/v1beta1/VolumeAttributesClass': {
    apiVersion: 'storage.orch.io/v1beta1',
    kind: 'VolumeAttributesClass',
    metadata: meta('gold'),
    driverName: 'csi.example.com',
    parameters: { iops: '5000', throughput: '250' },
  },
};
