// Realistic objects of the platform kinds (persistent volumes and claims, networking, discovery,
// storage, scheduling, node, flowcontrol) as clients and controllers write them, spread into
// realisticObjects: the schema model's round trips and the Table tests iterate them.
const meta = (name: string, namespace?: string): Record<string, unknown> => ({
  name,
  ...(namespace ? { namespace } : {}),
  uid: '5b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  resourceVersion: '4242',
  creationTimestamp: '2024-05-01T10:00:00Z',
});

export const platRealisticObjects: Record<string, Record<string, unknown>> = {
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
  'networking.orch.io/v1/Ingress': {
    apiVersion: 'networking.orch.io/v1',
    kind: 'Ingress',
    metadata: {
      ...meta('web', 'default'),
      annotations: { 'nginx.ingress.kubernetes.io/rewrite-target': '/' },
    },
    spec: {
      ingressClassName: 'nginx',
      defaultBackend: { service: { name: 'default-http', port: { number: 80 } } },
      tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }],
      rules: [
        {
          host: 'web.example.com',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'web', port: { name: 'http' } } },
              },
              {
                path: '/static',
                pathType: 'ImplementationSpecific',
                backend: {
                  resource: { apiGroup: 'storage.example.com', kind: 'Bucket', name: 'assets' },
                },
              },
            ],
          },
        },
        {
          host: 'api.example.com',
          http: {
            paths: [
              {
                path: '/v1',
                pathType: 'Exact',
                backend: { service: { name: 'api', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    },
    status: {
      loadBalancer: {
        ingress: [{ ip: '203.0.113.20', ports: [{ port: 443, protocol: 'TCP' }] }],
      },
    },
  },
  'networking.orch.io/v1/IngressClass': {
    apiVersion: 'networking.orch.io/v1',
    kind: 'IngressClass',
    metadata: {
      ...meta('nginx'),
      annotations: { 'ingressclass.orch.io/is-default-class': 'true' },
    },
    spec: {
      controller: 'k8s.io/ingress-nginx',
      parameters: {
        apiGroup: 'k8s.example.com',
        kind: 'IngressParameters',
        name: 'external-lb',
        scope: 'Namespace',
        namespace: 'ingress-nginx',
      },
    },
  },
  'networking.orch.io/v1/NetworkPolicy': {
    apiVersion: 'networking.orch.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta('web-allow', 'default'),
    spec: {
      podSelector: { matchLabels: { app: 'web' } },
      ingress: [
        {
          from: [
            { ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } },
            { namespaceSelector: { matchLabels: { project: 'myproject' } } },
            { podSelector: { matchLabels: { role: 'frontend' } } },
          ],
          ports: [{ protocol: 'TCP', port: 6379 }],
        },
      ],
      egress: [
        {
          to: [{ ipBlock: { cidr: '10.0.0.0/24' } }],
          ports: [{ protocol: 'TCP', port: 5978, endPort: 6000 }],
        },
      ],
      policyTypes: ['Ingress', 'Egress'],
    },
  },
  'discovery.orch.io/v1/EndpointSlice': {
    apiVersion: 'discovery.orch.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...meta('web-abc12', 'default'),
      labels: {
        'kubernetes.io/service-name': 'web',
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    },
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: ['10.244.1.5'],
        conditions: { ready: true, serving: true, terminating: false },
        hostname: 'web-0',
        targetRef: {
          kind: 'Pod',
          namespace: 'default',
          name: 'web-0',
          uid: '0c1d2e3f-0000-4000-8000-000000000002',
        },
        nodeName: 'node-1',
        zone: 'zone-a',
        hints: { forZones: [{ name: 'zone-a' }] },
      },
    ],
    ports: [{ name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' }],
  },
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
  'scheduling.orch.io/v1/PriorityClass': {
    apiVersion: 'scheduling.orch.io/v1',
    kind: 'PriorityClass',
    metadata: meta('high-priority'),
    value: 1000000,
    description: 'For latency-critical services.',
    preemptionPolicy: 'Never',
  },
  'node.orch.io/v1/RuntimeClass': {
    apiVersion: 'node.orch.io/v1',
    kind: 'RuntimeClass',
    metadata: meta('gvisor'),
    handler: 'runsc',
    overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
    scheduling: {
      nodeSelector: { 'runtime/gvisor': 'true' },
      tolerations: [{ key: 'runtime', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' }],
    },
  },
  'flowcontrol.apiserver.orch.io/v1/FlowSchema': {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'FlowSchema',
    metadata: meta('service-accounts'),
    spec: {
      priorityLevelConfiguration: { name: 'workload-low' },
      matchingPrecedence: 9000,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [
            { kind: 'Group', group: { name: 'system:serviceaccounts' } },
            { kind: 'ServiceAccount', serviceAccount: { namespace: 'default', name: 'web' } },
            { kind: 'User', user: { name: 'alice' } },
          ],
          resourceRules: [
            {
              verbs: ['*'],
              apiGroups: ['*'],
              resources: ['*'],
              clusterScope: true,
              namespaces: ['*'],
            },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }],
        },
      ],
    },
    status: {
      conditions: [
        {
          type: 'Dangling',
          status: 'False',
          lastTransitionTime: '2024-05-01T10:00:01Z',
          reason: 'Found',
          message:
            'This FlowSchema references the PriorityLevelConfiguration object named "workload-low" and it exists',
        },
      ],
    },
  },
  'flowcontrol.apiserver.orch.io/v1/PriorityLevelConfiguration': {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: meta('workload-low'),
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 100,
        limitResponse: {
          type: 'Queue',
          queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 },
        },
        lendablePercent: 90,
        borrowingLimitPercent: 0,
      },
    },
    status: {
      conditions: [
        {
          type: 'ConcurrencyShared',
          status: 'True',
          lastTransitionTime: '2024-05-01T10:00:01Z',
          reason: 'Configured',
          message: 'ok',
        },
      ],
    },
  },
};
