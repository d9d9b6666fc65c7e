// Realistic objects of apps's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { template } from './helpers.js';

export const appsObjects: Record<string, Record<string, unknown>> = {
  'apps/v1/Deployment': {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      generation: 3,
      annotations: { 'deployment.kubernetes.io/revision': '2' },
    },
    spec: {
      replicas: 0,
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }],
      },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'registry.example.com/web:1.2.3',
              ports: [{ containerPort: 8080 }],
            },
          ],
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      minReadySeconds: 5,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
      unavailableReplicas: 1,
      conditions: [
        {
          type: 'Available',
          status: 'False',
          lastUpdateTime: '2024-05-01T10:00:00Z',
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
        },
      ],
    },
  },
  'apps/v1/ReplicaSet': {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web-7d9f8b6c5d',
      namespace: 'default',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd1', controller: true },
      ],
    },
    spec: {
      replicas: 3,
      minReadySeconds: 5,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'web:1' }] },
      },
    },
    status: {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    },
  },
  'apps/v1/StatefulSet': {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default', generation: 4 },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'db' } },
      template: template('db', 'postgres:16'),
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            storageClassName: 'fast',
            resources: { requests: { storage: '10Gi' } },
            volumeMode: 'Filesystem',
          },
        },
      ],
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      revisionHistoryLimit: 10,
      minReadySeconds: 5,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
      ordinals: { start: 1 },
    },
    status: {
      observedGeneration: 4,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'db-5d8c7b9f6',
      updateRevision: 'db-5d8c7b9f6',
      collisionCount: 0,
      availableReplicas: 2,
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'PodNotReady',
        },
      ],
    },
  },
  'apps/v1/DaemonSet': {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-exporter', namespace: 'monitoring', generation: 1 },
    spec: {
      selector: { matchLabels: { app: 'node-exporter' } },
      template: {
        metadata: { labels: { app: 'node-exporter' } },
        spec: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          hostNetwork: true,
          tolerations: [{ operator: 'Exists' }],
          containers: [{ name: 'exporter', image: 'prom/node-exporter:v1.8.0' }],
        },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      minReadySeconds: 3,
      revisionHistoryLimit: 10,
    },
    status: {
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 3,
      observedGeneration: 1,
      updatedNumberScheduled: 3,
      numberAvailable: 3,
      collisionCount: 1,
    },
  },
  'apps/v1/ControllerRevision': {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: 'db-5d8c7b9f6',
      namespace: 'default',
      labels: { app: 'db', 'controller.kubernetes.io/hash': '5d8c7b9f6' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: 'db',
          uid: 's1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: {
      spec: { template: { $patch: 'replace', ...template('db', 'postgres:16') } },
    },
    revision: 2,
  },
};
