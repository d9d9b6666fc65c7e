// Realistic objects of autoscaling's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const autoscalingObjects: Record<string, Record<string, unknown>> = {
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
};
