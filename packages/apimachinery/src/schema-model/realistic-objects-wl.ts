// Realistic objects of the workload and autoscaling kinds, as their controllers and clients
// write them: shared by the schema model tests (validation, the binary round trip, tables).
const template = (app: string, image: string): Record<string, unknown> => ({
  metadata: { labels: { app } },
  spec: {
    containers: [
      {
        name: app,
        image,
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
      },
    ],
  },
});

export const realisticWorkloadObjects: Record<string, Record<string, unknown>> = {
  'v1/PodTemplate': {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name: 'batch-worker', namespace: 'default', labels: { team: 'data' } },
    template: template('worker', 'registry.example.com/worker:2.0.1'),
  },
  'v1/ReplicationController': {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'legacy-web', namespace: 'default', generation: 2 },
    spec: {
      replicas: 3,
      minReadySeconds: 10,
      selector: { app: 'legacy-web' },
      template: template('legacy-web', 'nginx:1.25'),
    },
    status: {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
      observedGeneration: 2,
      conditions: [
        {
          type: 'ReplicaFailure',
          status: 'True',
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'FailedCreate',
          message: 'pods "legacy-web-abcde" is forbidden: exceeded quota',
        },
      ],
    },
  },
  'v1/Endpoints': {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    subsets: [
      {
        addresses: [
          {
            ip: '10.244.1.5',
            hostname: 'web-0',
            nodeName: 'node-1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'p-0' },
          },
          { ip: '10.244.2.7', nodeName: 'node-2' },
        ],
        notReadyAddresses: [{ ip: '10.244.3.9' }],
        ports: [
          { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
          { name: 'metrics', port: 9090, protocol: 'TCP' },
        ],
      },
    ],
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
  'batch/v1/Job': {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'report-28571234',
      namespace: 'default',
      labels: { 'batch.kubernetes.io/job-name': 'report-28571234' },
    },
    spec: {
      parallelism: 2,
      completions: 4,
      activeDeadlineSeconds: 3600,
      podFailurePolicy: {
        rules: [
          {
            action: 'FailJob',
            onExitCodes: { containerName: 'report', operator: 'In', values: [42] },
          },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ],
      },
      backoffLimit: 6,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'j1' } },
      manualSelector: true,
      template: {
        metadata: {
          labels: {
            'batch.kubernetes.io/controller-uid': 'j1',
            'batch.kubernetes.io/job-name': 'report-28571234',
          },
        },
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'report', image: 'registry.example.com/report:1.0' }],
        },
      },
      ttlSecondsAfterFinished: 600,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'Failed',
    },
    status: {
      conditions: [
        {
          type: 'Complete',
          status: 'True',
          lastProbeTime: '2024-05-01T10:05:00Z',
          lastTransitionTime: '2024-05-01T10:05:00Z',
        },
      ],
      startTime: '2024-05-01T10:00:00Z',
      completionTime: '2024-05-01T10:05:00Z',
      succeeded: 4,
      terminating: 0,
      ready: 0,
      uncountedTerminatedPods: {},
    },
  },
  'batch/v1/CronJob': {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'report', namespace: 'default' },
    spec: {
      schedule: '*/15 * * * *',
      timeZone: 'Europe/Paris',
      startingDeadlineSeconds: 120,
      concurrencyPolicy: 'Forbid',
      suspend: false,
      jobTemplate: {
        metadata: { labels: { app: 'report' } },
        spec: {
          backoffLimit: 2,
          template: {
            spec: {
              restartPolicy: 'OnFailure',
              containers: [{ name: 'report', image: 'registry.example.com/report:1.0' }],
            },
          },
        },
      },
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    },
    status: {
      active: [
        {
          kind: 'Job',
          namespace: 'default',
          name: 'report-28571234',
          uid: 'j1',
          apiVersion: 'batch/v1',
          resourceVersion: '4711',
        },
      ],
      lastScheduleTime: '2024-05-01T10:00:00Z',
      lastSuccessfulTime: '2024-05-01T09:45:12Z',
    },
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
        },
        {
          type: 'Pods',
          pods: {
            metric: { name: 'packets-per-second' },
            target: { type: 'AverageValue', averageValue: '1k' },
          },
        },
        {
          type: 'Object',
          object: {
            describedObject: {
              kind: 'Ingress',
              name: 'main-route',
              apiVersion: 'networking.k8s.io/v1',
            },
            metric: { name: 'requests-per-second', selector: { matchLabels: { verb: 'GET' } } },
            target: { type: 'Value', value: '10k' },
          },
        },
        {
          type: 'External',
          external: {
            metric: { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'jobs' } } },
            target: { type: 'AverageValue', averageValue: '30' },
          },
        },
        {
          type: 'ContainerResource',
          containerResource: {
            name: 'cpu',
            container: 'app',
            target: { type: 'Utilization', averageUtilization: 60 },
          },
        },
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [
            { type: 'Percent', value: 100, periodSeconds: 15 },
            { type: 'Pods', value: 4, periodSeconds: 15 },
          ],
        },
        scaleDown: {
          stabilizationWindowSeconds: 300,
          selectPolicy: 'Min',
          policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }],
          tolerance: '50m',
        },
      },
    },
    status: {
      observedGeneration: 3,
      lastScaleTime: '2024-05-01T10:00:00Z',
      currentReplicas: 4,
      desiredReplicas: 5,
      currentMetrics: [
        { type: 'Resource', resource: { name: 'memory', current: { averageValue: '420Mi' } } },
        {
          type: 'Pods',
          pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '900' } },
        },
        {
          type: 'Object',
          object: {
            describedObject: {
              kind: 'Ingress',
              name: 'main-route',
              apiVersion: 'networking.k8s.io/v1',
            },
            metric: { name: 'requests-per-second', selector: { matchLabels: { verb: 'GET' } } },
            current: { value: '12k' },
          },
        },
        {
          type: 'External',
          external: {
            metric: { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'jobs' } } },
            current: { value: '130', averageValue: '26' },
          },
        },
        {
          type: 'ContainerResource',
          containerResource: {
            name: 'cpu',
            container: 'app',
            current: { averageValue: '300m', averageUtilization: 55 },
          },
        },
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageValue: '350m', averageUtilization: 75 } },
        },
      ],
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'ReadyForNewScale',
          message: 'recommended size matches current size',
        },
      ],
    },
  },
  'autoscaling/v1/HorizontalPodAutoscaler': {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 75,
    },
    status: {
      observedGeneration: 1,
      lastScaleTime: '2024-05-01T10:00:00Z',
      currentReplicas: 2,
      desiredReplicas: 3,
      currentCPUUtilizationPercentage: 90,
    },
  },
  'policy/v1/PodDisruptionBudget': {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default', generation: 1 },
    spec: {
      minAvailable: 2,
      selector: { matchLabels: { app: 'web' } },
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
    },
    status: {
      observedGeneration: 1,
      disruptedPods: { 'web-abc': '2024-05-01T10:00:00Z' },
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          observedGeneration: 1,
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'SufficientPods',
          message: 'The disruption budget has enough healthy pods.',
        },
      ],
    },
  },
  'policy/v1/Eviction': {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: 'web-abc', namespace: 'default' },
    deleteOptions: {
      gracePeriodSeconds: 30,
      preconditions: { uid: 'p-1', resourceVersion: '4711' },
      propagationPolicy: 'Background',
      dryRun: ['All'],
    },
  },
};
