// Realistic objects of the core group's kinds (v1), as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { meta, template } from './helpers.js';
import { realisticPod } from './pod.js';

export const coreObjects: Record<string, Record<string, unknown>> = {
  'v1/Namespace': {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'team-a',
      uid: '7e0c8f6e-1f0a-4c1e-8f0e-3b0c7f2a9d11',
      resourceVersion: '5',
      creationTimestamp: '2024-05-01T10:00:00Z',
      labels: { 'kubernetes.io/metadata.name': 'team-a' },
    },
    spec: { finalizers: ['kubernetes'] },
    status: {
      phase: 'Terminating',
      conditions: [
        {
          type: 'NamespaceDeletionContentFailure',
          status: 'False',
          lastTransitionTime: '2024-05-01T11:00:00Z',
          reason: 'ContentDeleted',
          message: 'All content successfully deleted',
        },
      ],
    },
  },
  'v1/ConfigMap': {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'web-config',
      namespace: 'default',
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    data: { 'app.yaml': 'port: 8080\nmode: production\n', logLevel: 'info' },
    binaryData: {
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]).toString('base64'),
    },
    immutable: false,
  },
  'v1/Secret': {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db',
      namespace: 'default',
      annotations: { 'kubernetes.io/service-account.name': 'web' },
    },
    type: 'Opaque',
    data: {
      password: Buffer.from('s3cr3t').toString('base64'),
      user: Buffer.from('admin').toString('base64'),
    },
    immutable: true,
  },
  'v1/ServiceAccount': {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'web', namespace: 'default' },
    secrets: [{ name: 'web-token-abcde' }],
    imagePullSecrets: [{ name: 'registry-creds' }],
    automountServiceAccountToken: false,
  },
  'v1/Pod': realisticPod,
  'v1/Binding': {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: 'web-7d9f8b6c5d-x2x4z', namespace: 'default' },
    target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
  },
  'v1/Service': {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      ports: [
        { name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 },
        { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 9090, appProtocol: 'http' },
      ],
      selector: { app: 'web' },
      clusterIP: '10.96.0.12',
      clusterIPs: ['10.96.0.12'],
      type: 'LoadBalancer',
      sessionAffinity: 'None',
      externalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      allocateLoadBalancerNodePorts: true,
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: { ingress: [{ ip: '203.0.113.10', ipMode: 'VIP' }] } },
  },
  'v1/Node': {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-1',
      labels: { 'kubernetes.io/hostname': 'node-1', 'node-role.kubernetes.io/control-plane': '' },
    },
    spec: {
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
      providerID: 'kind://docker/node-1',
      unschedulable: true,
      taints: [
        {
          key: 'node.kubernetes.io/unschedulable',
          effect: 'NoSchedule',
          timeAdded: '2024-05-01T10:00:00Z',
        },
      ],
    },
    status: {
      capacity: { cpu: '4', memory: '16318496Ki', pods: '110' },
      allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastHeartbeatTime: '2024-05-01T10:05:00Z',
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        },
      ],
      addresses: [
        { type: 'InternalIP', address: '192.168.1.10' },
        { type: 'Hostname', address: 'node-1' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: 'm1',
        systemUUID: 's1',
        bootID: 'b1',
        kernelVersion: '6.1.0',
        osImage: 'Debian GNU/Linux 12',
        containerRuntimeVersion: 'containerd://1.7.0',
        kubeletVersion: 'v1.30.0',
        kubeProxyVersion: 'v1.30.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [{ names: ['registry.example.com/web:1.2.3'], sizeBytes: 123456789012 }],
    },
  },
  'v1/Event': {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web.17c1', namespace: 'default' },
    involvedObject: {
      kind: 'Pod',
      namespace: 'default',
      name: 'web',
      uid: 'u1',
      apiVersion: 'v1',
      resourceVersion: '10',
      fieldPath: 'spec.containers{web}',
    },
    reason: 'Pulled',
    message: 'Container image already present on machine',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2024-05-01T10:20:33Z',
    lastTimestamp: '2024-05-01T10:25:33Z',
    count: 3,
    type: 'Normal',
    eventTime: '2024-05-01T10:20:33.123456Z',
    series: { count: 2, lastObservedTime: '2024-05-01T10:25:33.000001Z' },
    action: 'Pulling',
    reportingComponent: 'kubelet',
    reportingInstance: 'node-1',
  },
  'v1/ResourceQuota': {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: {
      name: 'compute',
      namespace: 'team-a',
      uid: '0f5d9a53-2b4e-4c61-9a0c-1d2e3f405162',
      resourceVersion: '42',
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    spec: {
      hard: {
        pods: '10',
        'requests.cpu': '4',
        'limits.memory': '8Gi',
        'count/deployments.apps': '5',
      },
      scopes: ['NotTerminating'],
      scopeSelector: {
        matchExpressions: [
          { scopeName: 'PriorityClass', operator: 'In', values: ['high', 'medium'] },
        ],
      },
    },
    status: {
      hard: {
        pods: '10',
        'requests.cpu': '4',
        'limits.memory': '8Gi',
        'count/deployments.apps': '5',
      },
      used: {
        pods: '3',
        'requests.cpu': '1500m',
        'limits.memory': '3Gi',
        'count/deployments.apps': '1',
      },
    },
  },
  'v1/LimitRange': {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: {
      name: 'limits',
      namespace: 'team-a',
      uid: '3c1b2a09-8f7e-4d6c-b5a4-938271605f4e',
      resourceVersion: '43',
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    spec: {
      limits: [
        {
          type: 'Container',
          max: { cpu: '2', memory: '1Gi' },
          min: { cpu: '100m', memory: '4Mi' },
          default: { cpu: '500m', memory: '256Mi' },
          defaultRequest: { cpu: '200m', memory: '128Mi' },
          maxLimitRequestRatio: { cpu: '10' },
        },
        { type: 'Pod', max: { cpu: '4', memory: '2Gi' } },
        { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
      ],
    },
  },
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
  'v1/PersistentVolume': {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      ...meta('pv-data-0'),
      annotations: { 'pv.kubernetes.io/provisioned-by': 'csi.example.com' },
      finalizers: ['orch.io/pv-protection'],
    },
    spec: {
      capacity: { storage: '10Gi' },
      csi: {
        driver: 'csi.example.com',
        volumeHandle: 'vol-0a1b2c3d',
        fsType: 'ext4',
        volumeAttributes: { tier: 'fast' },
        nodePublishSecretRef: { name: 'csi-secret', namespace: 'orch-system' },
      },
      accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
      claimRef: {
        kind: 'PersistentVolumeClaim',
        namespace: 'default',
        name: 'data-web-0',
        uid: '1a2b3c4d-0000-4000-8000-000000000001',
        apiVersion: 'v1',
        resourceVersion: '4100',
      },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'fast',
      mountOptions: ['noatime'],
      volumeMode: 'Filesystem',
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
              ],
            },
          ],
        },
      },
    },
    status: { phase: 'Bound', lastPhaseTransitionTime: '2024-05-01T10:00:05Z' },
  },
  'v1/PersistentVolumeClaim': {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...meta('data-web-0', 'default'),
      labels: { app: 'web' },
      finalizers: ['orch.io/pvc-protection'],
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      selector: { matchLabels: { tier: 'fast' } },
      resources: { requests: { storage: '10Gi' }, limits: { storage: '20Gi' } },
      volumeName: 'pv-data-0',
      storageClassName: 'fast',
      volumeMode: 'Filesystem',
      dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap-1' },
      dataSourceRef: {
        apiGroup: 'snapshot.storage.k8s.io',
        kind: 'VolumeSnapshot',
        name: 'snap-1',
      },
    },
    status: {
      phase: 'Bound',
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '10Gi' },
      conditions: [
        {
          type: 'Resizing',
          status: 'False',
          lastTransitionTime: '2024-05-01T10:00:05Z',
        },
      ],
    },
  },
};
