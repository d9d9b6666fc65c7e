// The realistic Pod of the core group's objects (core.ts), apart for its size: the one object
// many tests start from.
/** A running Pod with every field a client or the kubelet sets, its status included. */
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
