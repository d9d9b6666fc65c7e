// Realistic objects of batch's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const batchObjects: Record<string, Record<string, unknown>> = {
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
};
