// SecurityContextDeny row by row (upstream scdeny/admission_test.go): each field that lets a
// Pod choose its identity refuses the create or update with upstream's message; a Pod without
// them, another resource and a subresource pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pluginDeps, pod, recordingContext, request } from '../plugin-test-kit.js';
import type { RequestOptions } from '../plugin-test-kit.js';
import { newSecurityContextDeny } from './security-context-deny.js';

const withPodSc = (sc: Record<string, unknown>) =>
  pod('p', { securityContext: sc, containers: [{ name: 'c', image: 'nginx' }] });
const withContainerSc = (sc: Record<string, unknown>, where = 'containers') =>
  pod('p', {
    containers: [{ name: 'c', image: 'nginx' }],
    [where]: [{ name: 'x', image: 'nginx', securityContext: sc }],
  });

const rows: { name: string; req: RequestOptions; refused?: string }[] = [
  {
    name: 'pod supplementalGroups',
    req: { resource: 'pods', object: withPodSc({ supplementalGroups: [1234] }) },
    refused: 'pod.Spec.SecurityContext.SupplementalGroups is forbidden',
  },
  {
    name: 'pod seLinuxOptions',
    req: { resource: 'pods', object: withPodSc({ seLinuxOptions: { level: 's0' } }) },
    refused: 'pod.Spec.SecurityContext.SELinuxOptions is forbidden',
  },
  {
    name: 'pod runAsUser',
    req: { resource: 'pods', object: withPodSc({ runAsUser: 1 }) },
    refused: 'pod.Spec.SecurityContext.RunAsUser is forbidden',
  },
  {
    name: 'pod fsGroup, on update too',
    req: {
      resource: 'pods',
      operation: 'UPDATE',
      object: withPodSc({ fsGroup: 2 }),
      oldObject: withPodSc({}),
    },
    refused: 'pod.Spec.SecurityContext.FSGroup is forbidden',
  },
  {
    name: 'container seLinuxOptions',
    req: { resource: 'pods', object: withContainerSc({ seLinuxOptions: { level: 's0' } }) },
    refused: 'SecurityContext.SELinuxOptions is forbidden',
  },
  {
    name: 'init container runAsUser',
    req: { resource: 'pods', object: withContainerSc({ runAsUser: 0 }, 'initContainers') },
    refused: 'SecurityContext.RunAsUser is forbidden',
  },
  {
    name: 'a pod without them passes (runAsNonRoot is not one)',
    req: { resource: 'pods', object: withContainerSc({ runAsNonRoot: true }) },
  },
  {
    name: 'a subresource passes',
    req: { resource: 'pods', subResource: 'status', object: withPodSc({ runAsUser: 1 }) },
  },
];

for (const row of rows) {
  test(`SecurityContextDeny: ${row.name}`, async () => {
    const run = newSecurityContextDeny(pluginDeps()).validate!(
      request(row.req),
      recordingContext()
    );
    if (row.refused)
      await assert.rejects(run, { code: 403, message: `pods "p" is forbidden: ${row.refused}` });
    else await run;
  });
}
