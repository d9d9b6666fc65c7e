// Realistic objects of every built-in kind, as clients write them: shared by the schema model
// tests (validation, the binary round trip, tables) and the gateway's e2e tests.
import { platRealisticObjects } from './realistic-objects-plat.js';
import { realisticQuotaObjects } from './realistic-objects-quota.js';
import { realisticObjectsSvc } from './realistic-objects-svc.js';
import { realisticWorkloadObjects } from './realistic-objects-wl.js';
import { realisticObjectsVer } from './realistic-objects-ver.js';
import { realisticObjectsAlias } from './realistic-objects-alias.js';
import { realisticObjectsCrd } from './realistic-objects-crd.js';

export const realisticPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d9f8b6c5d-x2x4z',
    namespace: 'default',
    uid: '2f1c4d2a-6a0e-4bb4-9a55-7a7f1cbb2b10',
    resourceVersion: '12345',
    generation: 1,
    creationTimestamp: '2024-05-01T10:20:30Z',
    labels: { app: 'web', 'pod-template-hash': '7d9f8b6c5d' },
    annotations: { 'example.com/note': 'hello' },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-7d9f8b6c5d',
        uid: '0b3c1d6e-1111-4e0e-9bbb-222222222222',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    finalizers: ['example.com/cleanup'],
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2024-05-01T10:20:30Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
    ],
  },
  spec: {
    volumes: [
      {
        name: 'config',
        configMap: {
          name: 'web-config',
          items: [{ key: 'app.yaml', path: 'app.yaml', mode: 420 }],
          defaultMode: 420,
        },
      },
      { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      {
        name: 'token',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          ],
        },
      },
      { name: 'secret', secret: { secretName: 'web-tls', optional: false } },
    ],
    initContainers: [
      {
        name: 'migrate',
        image: 'registry.example.com/web:1.2.3',
        command: ['/bin/migrate'],
        args: ['--up'],
      },
    ],
    containers: [
      {
        name: 'web',
        image: 'registry.example.com/web:1.2.3',
        command: ['/bin/web'],
        args: ['--port=8080', '--verbose'],
        workingDir: '/srv',
        ports: [
          { name: 'http', containerPort: 8080, protocol: 'TCP' },
          { containerPort: 9090, protocol: 'UDP', hostPort: 9090 },
        ],
        env: [
          { name: 'MODE', value: 'production' },
          {
            name: 'POD_NAME',
            valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
          },
          {
            name: 'DB_PASSWORD',
            valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: false } },
          },
          {
            name: 'LOG_LEVEL',
            valueFrom: { configMapKeyRef: { name: 'web-config', key: 'logLevel' } },
          },
          {
            name: 'MEM',
            valueFrom: {
              resourceFieldRef: { containerName: 'web', resource: 'limits.memory', divisor: '1Mi' },
            },
          },
        ],
        envFrom: [
          { prefix: 'CFG_', configMapRef: { name: 'web-env' } },
          { secretRef: { name: 'web-secrets', optional: true } },
        ],
        resources: {
          limits: { cpu: '500m', memory: '256Mi' },
          requests: { cpu: '100m', memory: '128Mi', 'ephemeral-storage': '1Gi' },
        },
        volumeMounts: [
          { name: 'config', mountPath: '/etc/web', readOnly: true },
          { name: 'cache', mountPath: '/cache', subPath: 'web' },
        ],
        livenessProbe: {
          httpGet: {
            path: '/healthz',
            port: 8080,
            scheme: 'HTTP',
            httpHeaders: [{ name: 'X-Probe', value: 'live' }],
          },
          initialDelaySeconds: 10,
          periodSeconds: 5,
          failureThreshold: 3,
        },
        readinessProbe: { tcpSocket: { port: 'http' }, timeoutSeconds: 2 },
        startupProbe: {
          exec: { command: ['cat', '/tmp/ready'] },
          failureThreshold: 30,
          periodSeconds: 2,
        },
        lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
        securityContext: {
          runAsUser: 1000,
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
          seccompProfile: { type: 'RuntimeDefault' },
        },
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    serviceAccountName: 'web',
    automountServiceAccountToken: false,
    nodeName: 'node-1',
    securityContext: {
      fsGroup: 2000,
      runAsGroup: 3000,
      supplementalGroups: [4000],
      sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
    },
    imagePullSecrets: [{ name: 'registry-creds' }],
    hostname: 'web',
    subdomain: 'web-headless',
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] },
              ],
            },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 10, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
        ],
      },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              labelSelector: { matchLabels: { app: 'web' } },
              topologyKey: 'kubernetes.io/hostname',
            },
          },
        ],
      },
    },
    schedulerName: 'default-scheduler',
    tolerations: [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
    ],
    hostAliases: [{ ip: '10.0.0.5', hostnames: ['db.local'] }],
    priorityClassName: 'high',
    priority: 1000,
    dnsConfig: {
      nameservers: ['1.1.1.1'],
      searches: ['example.com'],
      options: [{ name: 'ndots', value: '2' }],
    },
    readinessGates: [{ conditionType: 'example.com/ready' }],
    runtimeClassName: 'gvisor',
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    overhead: { cpu: '250m', memory: '120Mi' },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { app: 'web' } },
      },
    ],
  },
  status: {
    phase: 'Running',
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        lastProbeTime: '2024-05-01T10:21:00Z',
        lastTransitionTime: '2024-05-01T10:21:00Z',
      },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-05-01T10:20:31Z' },
    ],
    hostIP: '192.168.1.10',
    hostIPs: [{ ip: '192.168.1.10' }],
    podIP: '10.244.1.7',
    podIPs: [{ ip: '10.244.1.7' }],
    startTime: '2024-05-01T10:20:31Z',
    initContainerStatuses: [
      {
        name: 'migrate',
        state: {
          terminated: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: '2024-05-01T10:20:32Z',
            finishedAt: '2024-05-01T10:20:40Z',
            containerID: 'containerd://abc',
          },
        },
        ready: true,
        restartCount: 0,
        image: 'registry.example.com/web:1.2.3',
        imageID: 'sha256:1111',
        containerID: 'containerd://abc',
      },
    ],
    containerStatuses: [
      {
        name: 'web',
        state: { running: { startedAt: '2024-05-01T10:20:41Z' } },
        lastState: {
          terminated: {
            exitCode: 137,
            signal: 9,
            reason: 'OOMKilled',
            startedAt: '2024-05-01T10:20:35Z',
            finishedAt: '2024-05-01T10:20:40Z',
          },
        },
        ready: true,
        restartCount: 2,
        image: 'registry.example.com/web:1.2.3',
        imageID: 'sha256:2222',
        containerID: 'containerd://def',
        started: true,
      },
    ],
    qosClass: 'Burstable',
  },
};

export const realisticObjects: Record<string, Record<string, unknown>> = {
  ...realisticQuotaObjects,
  ...realisticWorkloadObjects,
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
  'coordination.orch.io/v1/Lease': {
    apiVersion: 'coordination.orch.io/v1',
    kind: 'Lease',
    metadata: { name: 'controller-manager', namespace: 'kube-system' },
    spec: {
      holderIdentity: 'cm-1_abc',
      leaseDurationSeconds: 15,
      acquireTime: '2024-05-01T10:00:00.000000Z',
      renewTime: '2024-05-01T10:05:00.250000Z',
      leaseTransitions: 0,
    },
  },
  'certificates.orch.io/v1/CertificateSigningRequest': {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'node-csr-worker-1' },
    spec: {
      // openssl req -new -newkey ec -subj "/O=system:nodes/CN=system:node:worker-1"
      request:
        'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIeU1JR1lBZ0VBTURZeEZUQVRCZ05W' +
        'QkFvTURITjVjM1JsYlRwdWIyUmxjekVkTUJzR0ExVUVBd3dVYzNsegpkR1Z0T201dlpHVTZkMjl5YTJW' +
        'eUxURXdXVEFUQmdjcWhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUVJURnZyClpMa3ZwSWpKM1R6c0M3' +
        'RFI4aGV0elQzVndXcGg1WE0zak9LVWgrZUdjNkNPTlVaTU1pR2JVWXJTN290NEcwMC8KbkRRdktFdlNV' +
        'UkpqcFMxam9BQXdDZ1lJS29aSXpqMEVBd0lEU1FBd1JnSWhBSUE2UlQzeG8xS0RyZ2Q4ZTRuQgpJenRy' +
        'OFRJVmNSRkQ5c3EvVWJUNHA4QnVBaUVBaHdtcmQvaFBOTU1vVVZHVDgrcjlhalZHaXJ0WUM1YnlTejJR' +
        'ClJsK3JqelE9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=',
      signerName: 'orch.io/apiserver-client-node-agent',
      expirationSeconds: 86400,
      usages: ['digital signature', 'client auth'],
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
    },
    status: {
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'AutoApproved',
          message: 'Auto approving node-agent client certificate after SubjectAccessReview.',
          lastUpdateTime: '2024-05-01T10:00:00Z',
          lastTransitionTime: '2024-05-01T10:00:00Z',
        },
      ],
    },
  },
  'admissionregistration.orch.io/v1/MutatingWebhookConfiguration': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'sidecar-injector', generation: 1 },
    webhooks: [
      {
        name: 'sidecar-injector.example.com',
        clientConfig: {
          service: { namespace: 'injector', name: 'webhook', path: '/mutate', port: 443 },
        },
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['pods'],
            scope: 'Namespaced',
          },
        ],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {
          matchExpressions: [{ key: 'injection', operator: 'NotIn', values: ['disabled'] }],
        },
        objectSelector: {},
        sideEffects: 'None',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1', 'v1beta1'],
        reinvocationPolicy: 'IfNeeded',
        matchConditions: [
          { name: 'not-kube-system', expression: "request.namespace != 'kube-system'" },
        ],
      },
    ],
  },
  'admissionregistration.orch.io/v1/ValidatingWebhookConfiguration': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'policy-checker', generation: 2 },
    webhooks: [
      {
        name: 'deployments.policy.example.com',
        clientConfig: { url: 'https://policy.example.com:8443/validate' },
        rules: [
          {
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['apps'],
            apiVersions: ['*'],
            resources: ['deployments', 'deployments/scale'],
            scope: '*',
          },
        ],
        failurePolicy: 'Ignore',
        matchPolicy: 'Exact',
        namespaceSelector: {},
        objectSelector: { matchLabels: { 'policy.example.com/enforce': 'true' } },
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 5,
        admissionReviewVersions: ['v1'],
      },
    ],
  },
  'admissionregistration.orch.io/v1/ValidatingAdmissionPolicy': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replica-limit.example.com', generation: 1 },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [
          {
            resourceNames: ['web'],
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            resources: ['deployments'],
            scope: '*',
          },
        ],
        matchPolicy: 'Equivalent',
      },
      validations: [
        {
          expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
          message: 'too many replicas',
          reason: 'Invalid',
          messageExpression: "'at most ' + params.data.maxReplicas + ' replicas'",
        },
      ],
      failurePolicy: 'Fail',
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      matchConditions: [{ name: 'has-replicas', expression: 'has(object.spec.replicas)' }],
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
    },
    status: {
      observedGeneration: 1,
      typeChecking: {
        expressionWarnings: [
          { fieldRef: 'spec.validations[0].expression', warning: 'no matching type' },
        ],
      },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          observedGeneration: 1,
          lastTransitionTime: '2024-05-01T10:20:30Z',
          reason: 'TypeChecked',
          message: 'type checking done',
        },
      ],
    },
  },
  'admissionregistration.orch.io/v1/ValidatingAdmissionPolicyBinding': {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'replica-limit-prod' },
    spec: {
      policyName: 'replica-limit.example.com',
      paramRef: {
        name: 'replica-limits',
        namespace: 'default',
        parameterNotFoundAction: 'Deny',
      },
      matchResources: {
        namespaceSelector: { matchLabels: { env: 'prod' } },
        objectSelector: {},
        matchPolicy: 'Equivalent',
      },
      validationActions: ['Deny', 'Audit'],
    },
  },
  'events.orch.io/v1/Event': {
    apiVersion: 'events.orch.io/v1',
    kind: 'Event',
    metadata: { name: 'web.17c2', namespace: 'default' },
    eventTime: '2024-05-01T10:20:33.123456Z',
    series: { count: 4, lastObservedTime: '2024-05-01T10:30:00.000000Z' },
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-1',
    action: 'Scale',
    reason: 'ScalingReplicaSet',
    regarding: {
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
      uid: 'd1',
      apiVersion: 'apps/v1',
    },
    note: 'Scaled up replica set web-7d9f8b6c5d to 3',
    type: 'Normal',
  },
  'rbac.authorization.orch.io/v1/Role': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'Role',
    metadata: { name: 'pod-reader', namespace: 'default' },
    rules: [
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: [''],
        resources: ['pods', 'pods/log'],
        resourceNames: ['web'],
      },
    ],
  },
  'rbac.authorization.orch.io/v1/RoleBinding': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'read-pods', namespace: 'default' },
    subjects: [
      { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'jane' },
      { kind: 'ServiceAccount', name: 'web', namespace: 'default' },
    ],
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'pod-reader' },
  },
  'rbac.authorization.orch.io/v1/ClusterRole': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: 'monitoring',
      labels: { 'rbac.example.com/aggregate-to-monitoring': 'true' },
    },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/healthz/*'] }],
    aggregationRule: {
      clusterRoleSelectors: [
        { matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } },
      ],
    },
  },
  'rbac.authorization.orch.io/v1/ClusterRoleBinding': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'monitoring' },
    subjects: [
      { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:monitoring' },
    ],
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'monitoring' },
  },
  // Virtual kinds: a request as a client sends it, with the status the server answers.
  'authentication.orch.io/v1/TokenReview': realisticTokenReview('v1'),
  'authentication.orch.io/v1beta1/TokenReview': realisticTokenReview('v1beta1'),
  ...realisticObjectsVer,
  ...realisticObjectsAlias,
  'authorization.orch.io/v1/SubjectAccessReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SubjectAccessReview',
    metadata: {},
    spec: {
      resourceAttributes: {
        namespace: 'default',
        verb: 'get',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        subresource: 'scale',
        name: 'web',
      },
      user: 'jane',
      groups: ['dev', 'system:authenticated'],
      extra: { 'scopes.example.com': ['read', 'write'] },
      uid: '42',
    },
    status: {
      allowed: false,
      denied: true,
      reason: 'no RBAC policy matched',
      evaluationError: 'clusterrole "gone" not found',
    },
  },
  'authorization.orch.io/v1/SelfSubjectAccessReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: {},
    spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    status: {
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer"',
    },
  },
  'authorization.orch.io/v1/LocalSubjectAccessReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'LocalSubjectAccessReview',
    metadata: { namespace: 'team-a' },
    spec: {
      resourceAttributes: { namespace: 'team-a', verb: 'create', resource: 'pods' },
      user: 'system:serviceaccount:team-a:builder',
    },
    status: { allowed: true },
  },
  'authorization.orch.io/v1/SelfSubjectRulesReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectRulesReview',
    metadata: {},
    spec: { namespace: 'default' },
    status: {
      resourceRules: [
        {
          verbs: ['create'],
          apiGroups: ['authorization.orch.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        },
        {
          verbs: ['get', 'update'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['settings'],
        },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/version'] }],
      incomplete: false,
    },
  },
  ...realisticObjectsSvc,
  ...platRealisticObjects,
  ...realisticObjectsCrd,
};

// The v1beta1 ValidatingAdmissionPolicy kinds, served beside v1 (registry/builtin-alias.ts), have
// v1's fields: the same objects at that version.
for (const kind of ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']) {
  const v1 = realisticObjects[`admissionregistration.orch.io/v1/${kind}`]!;
  realisticObjects[`admissionregistration.orch.io/v1beta1/${kind}`] = {
    ...structuredClone(v1),
    apiVersion: 'admissionregistration.orch.io/v1beta1',
  };
}

function realisticTokenReview(version: string): Record<string, unknown> {
  return {
    apiVersion: `authentication.orch.io/${version}`,
    kind: 'TokenReview',
    metadata: {},
    spec: {
      token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln',
      audiences: ['https://orch.default.svc', 'vault'],
    },
    status: {
      authenticated: true,
      user: {
        username: 'system:serviceaccount:default:web',
        uid: '6f1c2d3e-0000-4abc-9def-123456789abc',
        groups: [
          'system:serviceaccounts',
          'system:serviceaccounts:default',
          'system:authenticated',
        ],
        extra: {
          'authentication.orch.io/pod-name': ['web-7d9f8b6c5d-x2x4z'],
          'authentication.orch.io/credential-id': ['JTI=1'],
        },
      },
      audiences: ['vault'],
    },
  };
}
