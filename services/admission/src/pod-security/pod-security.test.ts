// PodSecurity: the checks row by row (upstream's check_*_test.go cases), then the plugin over a
// request: enforce refusing with upstream's message, warn and audit, the configuration's
// defaults and exemptions, pod templates, namespace labels and the existing pods' warnings, and
// the configuration refused field by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '@orch/apimachinery/errors';
import { namespace, pluginDeps, pod, recordingContext, request } from '../plugin-test-kit.js';
import { describeResults, evaluatePod } from './checks.js';
import type { Level, Version } from './checks.js';
import { podSecurityTemplateResources, scopeResource } from '@orch/apimachinery/admission';
import { newPodSecurity, podSecurityScopeOf, podTemplatePaths } from './pod-security.js';
import { parsePodSecurityConfiguration } from './pod-security-configuration.js';

const restrictedContainer = {
  name: 'c',
  image: 'x',
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  },
};
const restrictedSpec = (
  extra: Record<string, unknown> = {},
  container: Record<string, unknown> = {}
) => ({
  containers: [
    {
      ...restrictedContainer,
      ...container,
      securityContext: {
        ...restrictedContainer.securityContext,
        ...(container['securityContext'] as object | undefined),
      },
    },
  ],
  ...extra,
});

const checkRows: {
  name: string;
  level: Level;
  version?: Version;
  metadata?: Record<string, unknown>;
  spec: Record<string, unknown>;
  want: string;
}[] = [
  {
    name: 'restricted: a bare container fails the four restricted checks, in upstream order and words',
    level: 'restricted',
    spec: { containers: [{ name: 'c', image: 'x' }] },
    want:
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  },
  {
    name: 'restricted: a compliant pod passes',
    level: 'restricted',
    spec: restrictedSpec(),
    want: '',
  },
  {
    name: 'restricted: pod-level runAsNonRoot and seccompProfile cover the containers',
    level: 'restricted',
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Localhost' } },
      containers: [
        {
          name: 'c',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
    want: '',
  },
  {
    name: 'runAsNonRoot: pod true, container explicitly false',
    level: 'restricted',
    spec: restrictedSpec({}, { securityContext: { runAsNonRoot: false } }),
    want: 'runAsNonRoot != true (container "c" must not set securityContext.runAsNonRoot=false)',
  },
  {
    name: 'baseline: host namespaces',
    level: 'baseline',
    spec: { hostNetwork: true, hostPID: true, containers: [{ name: 'c' }] },
    want: 'host namespaces (hostNetwork=true, hostPID=true)',
  },
  {
    name: 'baseline: privileged containers, plural',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'a', securityContext: { privileged: true } },
        { name: 'b', securityContext: { privileged: true } },
      ],
    },
    want: 'privileged (containers "a", "b" must not set securityContext.privileged=true)',
  },
  {
    name: 'baseline: non-default capabilities',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'c', securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN'] } } },
      ],
    },
    want: 'non-default capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
  },
  {
    name: 'restricted: capabilities_restricted overrides capabilities_baseline',
    level: 'restricted',
    spec: restrictedSpec(
      {},
      {
        securityContext: {
          capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'NET_BIND_SERVICE'] },
        },
      }
    ),
    want: 'unrestricted capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
  },
  {
    name: 'baseline: hostPath volumes',
    level: 'baseline',
    spec: {
      containers: [{ name: 'c' }],
      volumes: [
        { name: 'data', hostPath: { path: '/d' } },
        { name: 'e', emptyDir: {} },
      ],
    },
    want: 'hostPath volumes ("data")',
  },
  {
    name: 'restricted: restrictedVolumes overrides hostPathVolumes',
    level: 'restricted',
    spec: restrictedSpec({
      volumes: [
        { name: 'data', hostPath: { path: '/d' } },
        { name: 'n', nfs: { server: 's', path: '/' } },
      ],
    }),
    want: 'restricted volume types (volumes "data", "n" use restricted volume types "hostPath", "nfs")',
  },
  {
    name: 'baseline: hostPort',
    level: 'baseline',
    spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 80 }] }] },
    want: 'hostPort (container "c" uses hostPort 80)',
  },
  {
    name: 'baseline: procMount Unmasked',
    level: 'baseline',
    spec: { containers: [{ name: 'c', securityContext: { procMount: 'Unmasked' } }] },
    want: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
  },
  {
    name: 'baseline: seccompProfile Unconfined on the pod',
    level: 'baseline',
    spec: {
      securityContext: { seccompProfile: { type: 'Unconfined' } },
      containers: [{ name: 'c' }],
    },
    want: 'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
  },
  {
    name: 'baseline: seLinuxOptions with a custom type',
    level: 'baseline',
    spec: { containers: [{ name: 'c', securityContext: { seLinuxOptions: { type: 'spc_t' } } }] },
    want: 'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "spc_t")',
  },
  {
    name: 'sysctls: ip_local_reserved_ports is forbidden at v1.26',
    level: 'baseline',
    version: 26,
    spec: {
      securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] },
      containers: [{ name: 'c' }],
    },
    want: 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)',
  },
  {
    name: 'sysctls: ip_local_reserved_ports is allowed from v1.27',
    level: 'baseline',
    version: 27,
    spec: {
      securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] },
      containers: [{ name: 'c' }],
    },
    want: '',
  },
  {
    name: 'runAsUser=0: not checked before v1.23',
    level: 'restricted',
    version: 22,
    spec: restrictedSpec({ securityContext: { runAsUser: 0 } }),
    want: '',
  },
  {
    name: 'runAsUser=0: refused at latest',
    level: 'restricted',
    spec: restrictedSpec({ securityContext: { runAsUser: 0 } }),
    want: 'runAsUser=0 (pod must not set runAsUser=0)',
  },
  {
    name: 'windows pods: exempt from the Linux-only restricted checks from v1.25',
    level: 'restricted',
    version: 25,
    spec: {
      os: { name: 'windows' },
      securityContext: { runAsNonRoot: true },
      containers: [{ name: 'c' }],
    },
    want: '',
  },
  {
    name: 'windows pods: not exempt at v1.24',
    level: 'restricted',
    version: 24,
    spec: {
      os: { name: 'windows' },
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false } }],
    },
    want: 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"])',
  },
  {
    name: 'baseline: a probe host is forbidden from v1.34',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'c', livenessProbe: { httpGet: { host: '10.0.0.1', port: 80 } } },
        { name: 'd', lifecycle: { preStop: { tcpSocket: { host: 'evil', port: 1 } } } },
      ],
    },
    want: 'probe or lifecycle host (containers "c", "d" use probe or lifecycle hosts "10.0.0.1", "evil")',
  },
  {
    name: 'baseline: a probe host is not checked at v1.33',
    level: 'baseline',
    version: 33,
    spec: {
      containers: [{ name: 'c', livenessProbe: { httpGet: { host: '10.0.0.1', port: 80 } } }],
    },
    want: '',
  },
  {
    name: 'baseline: an unconfined AppArmor annotation',
    level: 'baseline',
    metadata: { annotations: { 'container.apparmor.security.beta.orch.io/c': 'unconfined' } },
    spec: { containers: [{ name: 'c' }] },
    want: 'forbidden AppArmor profile (container.apparmor.security.beta.orch.io/c="unconfined")',
  },
  {
    name: 'privileged: nothing is checked',
    level: 'privileged',
    spec: { hostNetwork: true, containers: [{ name: 'c', securityContext: { privileged: true } }] },
    want: '',
  },
];

for (const row of checkRows) {
  test(`PodSecurity check: ${row.name}`, () => {
    const got = describeResults(
      evaluatePod(row.level, row.version ?? 'latest', {
        metadata: row.metadata ?? {},
        spec: row.spec,
      })
    );
    assert.equal(got, row.want);
  });
}

const ns = (labels?: Record<string, string>) => namespace('ns', labels);
const bare = pod('x', { containers: [{ name: 'c', image: 'x' }] });
const hostNetwork = pod('h', { hostNetwork: true, containers: [{ name: 'c', image: 'x' }] });

async function run(
  opts: { labels?: Record<string, string>; config?: unknown; pods?: ReturnType<typeof pod>[] },
  req: ReturnType<typeof request>
) {
  const plugin = newPodSecurity(
    pluginDeps({
      namespaces: [ns(opts.labels)],
      config: opts.config,
      objects: { pods: opts.pods ?? [] },
    })
  );
  const ctx = recordingContext();
  let error: StatusError | undefined;
  try {
    await plugin.validate!(req, ctx);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    error = err;
  }
  return { error, warnings: ctx.warnings, annotations: ctx.annotations };
}

test('PodSecurity: enforce=restricted refuses a pod with upstream’s message (403)', async () => {
  const r = await run(
    { labels: { 'pod-security.orch.io/enforce': 'restricted' } },
    request({ resource: 'pods', object: bare })
  );
  assert.equal(r.error?.code, 403);
  assert.equal(
    r.error?.message,
    'pods "x" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'
  );
  assert.equal(r.annotations['pod-security.orch.io/enforce-policy'], 'restricted:latest');
});

test('PodSecurity: enforce with a version label names it', async () => {
  const r = await run(
    {
      labels: {
        'pod-security.orch.io/enforce': 'baseline',
        'pod-security.orch.io/enforce-version': 'v1.27',
      },
    },
    request({ resource: 'pods', object: hostNetwork })
  );
  assert.match(
    r.error?.message ?? '',
    /^pods "h" is forbidden: violates PodSecurity "baseline:v1.27": host namespaces \(hostNetwork=true\)$/
  );
});

test('PodSecurity: warn mode allows the pod with a warning', async () => {
  const r = await run(
    { labels: { 'pod-security.orch.io/warn': 'baseline' } },
    request({ resource: 'pods', object: hostNetwork })
  );
  assert.equal(r.error, undefined);
  assert.deepEqual(r.warnings, [
    'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
  ]);
});

test('PodSecurity: audit mode adds the audit annotation, no warning', async () => {
  const r = await run(
    { labels: { 'pod-security.orch.io/audit': 'restricted' } },
    request({ resource: 'pods', object: hostNetwork })
  );
  assert.equal(r.error, undefined);
  assert.deepEqual(r.warnings, []);
  assert.match(
    r.annotations['pod-security.orch.io/audit-violations'] ?? '',
    /^would violate PodSecurity "restricted:latest": host namespaces \(hostNetwork=true\), allowPrivilegeEscalation != false/
  );
  assert.equal(r.annotations['pod-security.orch.io/enforce-policy'], 'privileged:latest');
});

test('PodSecurity: an unlabelled namespace is privileged by default', async () => {
  const r = await run({}, request({ resource: 'pods', object: hostNetwork }));
  assert.equal(r.error, undefined);
  assert.deepEqual(r.warnings, []);
});

test('PodSecurity: the configuration’s defaults apply to unlabelled namespaces', async () => {
  const r = await run(
    { config: { defaults: { enforce: 'baseline' } } },
    request({ resource: 'pods', object: hostNetwork })
  );
  assert.match(r.error?.message ?? '', /violates PodSecurity "baseline:latest": host namespaces/);
});

test('PodSecurity: a namespace label overrides the configuration’s default', async () => {
  const r = await run(
    {
      config: { defaults: { enforce: 'restricted' } },
      labels: { 'pod-security.orch.io/enforce': 'privileged' },
    },
    request({ resource: 'pods', object: hostNetwork })
  );
  assert.equal(r.error, undefined);
});

const exemptionRows: {
  name: string;
  config: unknown;
  req: ReturnType<typeof request>;
  exempt: string;
}[] = [
  {
    name: 'usernames',
    config: { exemptions: { usernames: ['system:serviceaccount:kube:ds'] } },
    req: request({
      resource: 'pods',
      object: hostNetwork,
      user: { name: 'system:serviceaccount:kube:ds' },
    }),
    exempt: 'user',
  },
  {
    name: 'namespaces',
    config: { exemptions: { namespaces: ['ns'] } },
    req: request({ resource: 'pods', object: hostNetwork }),
    exempt: 'namespace',
  },
  {
    name: 'runtimeClasses',
    config: { exemptions: { runtimeClasses: ['kata'] } },
    req: request({
      resource: 'pods',
      object: pod('k', {
        runtimeClassName: 'kata',
        hostNetwork: true,
        containers: [{ name: 'c' }],
      }),
    }),
    exempt: 'runtimeClass',
  },
];
for (const row of exemptionRows) {
  test(`PodSecurity: exemption by ${row.name} lets a violating pod in, annotated`, async () => {
    const r = await run(
      { labels: { 'pod-security.orch.io/enforce': 'restricted' }, config: row.config },
      row.req
    );
    assert.equal(r.error, undefined);
    assert.equal(r.annotations['pod-security.orch.io/exempt'], row.exempt);
  });
}

test('PodSecurity: an update changing only labels is not evaluated (upstream’s isSignificantPodUpdate)', async () => {
  const relabelled = { ...bare, metadata: { ...bare.metadata, labels: { a: 'b' } } };
  const r = await run(
    { labels: { 'pod-security.orch.io/enforce': 'restricted' } },
    request({ operation: 'UPDATE', resource: 'pods', object: relabelled, oldObject: bare })
  );
  assert.equal(r.error, undefined);
});

test('PodSecurity: a Deployment’s template is warned about, never refused', async () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    spec: { template: { metadata: {}, spec: { containers: [{ name: 'c', image: 'x' }] } } },
  };
  const r = await run(
    {
      labels: {
        'pod-security.orch.io/enforce': 'restricted',
        'pod-security.orch.io/warn': 'restricted',
      },
    },
    request({ group: 'apps', resource: 'deployments', object: deployment })
  );
  assert.equal(r.error, undefined);
  assert.equal(r.warnings.length, 1);
  assert.match(
    r.warnings[0]!,
    /^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "c"/
  );
});

test('PodSecurity: an invalid namespace label is refused, naming the label', async () => {
  const r = await run(
    {},
    request({
      resource: 'namespaces',
      name: 'ns',
      namespace: '',
      object: namespace('ns', {
        'pod-security.orch.io/enforce': 'strict',
        'pod-security.orch.io/warn-version': '1.25',
      }),
    })
  );
  assert.equal(r.error?.code, 422);
  assert.equal(
    r.error?.message,
    'Namespace "ns" is invalid: metadata.labels[pod-security.orch.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.orch.io/warn-version]: Invalid value: "1.25": must be "latest" or "v1.x"'
  );
});

test('PodSecurity: a new enforce level warns about each existing pod that violates it', async () => {
  const r = await run(
    { pods: [hostNetwork, pod('ok', restrictedSpec())] },
    request({
      operation: 'UPDATE',
      resource: 'namespaces',
      name: 'ns',
      namespace: '',
      object: namespace('ns', { 'pod-security.orch.io/enforce': 'baseline' }),
      oldObject: namespace('ns'),
    })
  );
  assert.equal(r.error, undefined);
  assert.deepEqual(r.warnings, [
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
    'h: host namespaces',
  ]);
});

test('PodSecurity: pods of one controller are reported once, with how many others', async () => {
  const owned = (name: string) =>
    pod(
      name,
      { hostIPC: true, containers: [{ name: 'c' }] },
      {
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-1', controller: true },
        ],
      }
    );
  const r = await run(
    { pods: [owned('rs-b'), owned('rs-a'), owned('rs-c')] },
    request({
      operation: 'UPDATE',
      resource: 'namespaces',
      name: 'ns',
      namespace: '',
      object: namespace('ns', { 'pod-security.orch.io/enforce': 'baseline' }),
      oldObject: namespace('ns', { 'pod-security.orch.io/enforce': 'privileged' }),
    })
  );
  assert.deepEqual(r.warnings.slice(1), ['rs-b (and 2 other pods): host namespaces']);
});

test('PodSecurity: a namespace update that keeps the enforce level checks no pods', async () => {
  const r = await run(
    { pods: [hostNetwork] },
    request({
      operation: 'UPDATE',
      resource: 'namespaces',
      name: 'ns',
      namespace: '',
      object: namespace('ns', { 'pod-security.orch.io/enforce': 'baseline', other: 'x' }),
      oldObject: namespace('ns', { 'pod-security.orch.io/enforce': 'baseline' }),
    })
  );
  assert.deepEqual(r.warnings, []);
});

test('PodSecurity: a namespace that cannot be read is an internal error (upstream’s)', async () => {
  const plugin = newPodSecurity(pluginDeps({ namespaces: [] }));
  await assert.rejects(
    plugin.validate!(request({ resource: 'pods', object: bare }), recordingContext()),
    {
      code: 500,
      message: /failed to lookup namespace "ns" for pod "x"/,
    }
  );
});

const configRows: { name: string; raw: unknown; error: RegExp }[] = [
  {
    name: 'an unknown level',
    raw: { defaults: { enforce: 'strict' } },
    error:
      /defaults\.enforce: Unsupported value: "strict": supported values: "privileged", "baseline", "restricted"/,
  },
  {
    name: 'a bad version',
    raw: { defaults: { 'audit-version': '1.2' } },
    error: /defaults\.audit-version: Invalid value: "1\.2": must be "latest" or "v1\.x"/,
  },
  {
    name: 'an unknown key',
    raw: { exemptions: { users: ['a'] } },
    error: /exemptions\.users: Unsupported value/,
  },
  {
    name: 'a username that is not a string',
    raw: { exemptions: { usernames: [3] } },
    error: /exemptions\.usernames\[0\]: Invalid value: 3/,
  },
  {
    name: 'another kind',
    raw: { kind: 'AdmissionConfiguration' },
    error: /kind: Unsupported value: "AdmissionConfiguration"/,
  },
];
for (const row of configRows) {
  test(`PodSecurity configuration: ${row.name} is refused, naming the field`, () => {
    assert.throws(() => parsePodSecurityConfiguration(row.raw), row.error);
  });
}

test('PodSecurity configuration: upstream’s example parses', () => {
  const c = parsePodSecurityConfiguration({
    apiVersion: 'pod-security.admission.config.orch.io/v1',
    kind: 'PodSecurityConfiguration',
    defaults: {
      enforce: 'baseline',
      'enforce-version': 'v1.30',
      audit: 'restricted',
      warn: 'restricted',
    },
    exemptions: { usernames: [], runtimeClasses: [], namespaces: ['orch-system'] },
  });
  assert.deepEqual(c.defaults.enforce, { level: 'baseline', version: 30 });
  assert.deepEqual(c.defaults.warn, { level: 'restricted', version: 'latest' });
  assert.deepEqual(c.exemptions.namespaces, ['orch-system']);
});

test('PodSecurity: the pod controllers it checks are those the gateway narrows its scope for', () => {
  const checked = Object.keys(podTemplatePaths).map((k) => {
    const [group, resource] = k.split('/') as [string, string];
    return scopeResource({ group, resource });
  });
  assert.deepEqual(checked.sort(), [...podSecurityTemplateResources].sort());
});

test('PodSecurity: what ListPlugins tells of the configuration (defaults, exemptions; unusable: nothing)', () => {
  assert.deepEqual(podSecurityScopeOf(undefined), {
    defaultAuditLevel: 'privileged',
    defaultWarnLevel: 'privileged',
    exemptNamespaces: [],
    exemptUsernames: [],
  });
  assert.deepEqual(
    podSecurityScopeOf({
      apiVersion: 'pod-security.admission.config.orch.io/v1',
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'baseline', audit: 'restricted', warn: 'baseline' },
      exemptions: { usernames: ['ci'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
    }),
    {
      defaultAuditLevel: 'restricted',
      defaultWarnLevel: 'baseline',
      exemptNamespaces: ['kube-system'],
      exemptUsernames: ['ci'],
    }
  );
  assert.equal(podSecurityScopeOf({ defaults: { warn: 'bogus' } }), undefined);
});
