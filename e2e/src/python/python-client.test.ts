// The official Python client (Debian's python3-kubernetes, installed by scripts/ensure-deps.sh)
// against the shared suite: create, list, watch, patch and delete of configmaps, services with
// allocated cluster IPs and node ports and their status.loadBalancer, a pod's status.phase and
// qosClass and its delete answering the pod, a deployment in apps/v1. client_calls.py does the
// calls and reports each step; this test checks the steps and what the server holds afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const script = fileURLToPath(new URL('../../src/python/client_calls.py', import.meta.url));
// Debian's package is for the system Python: /usr/bin/python3 over whatever else is on PATH
// (ORCH_PYTHON overrides).
const python =
  process.env['ORCH_PYTHON'] ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

// The shared suite's gateways allocate cluster IPs from the default --service-cluster-ip-range.
const serviceCidrPrefix = '10.0.0.';
const ns = 'python-client';

before(async () => {
  suite = await sharedSuite();
});

after(async () => {
  // The node port service holds an address and a port of the shared ranges.
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}/services/py-np`);
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
});

function runPython(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(python, [script, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

test('the official Python client: configmaps (create, list, watch, patch, delete), services with allocated IPs and status.loadBalancer, a pod with status.phase and qosClass, apps/v1', async () => {
  const r = await runPython([suite.kubeconfigs[0]!, ns, serviceCidrPrefix]);
  const steps = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { step: string; ok: boolean; [k: string]: unknown });
  assert.equal(r.code, 0, `python failed:\n${r.stdout}\n${r.stderr}`);
  assert.deepEqual(
    steps.map((s) => s.step),
    [
      'create namespace',
      'create configmap',
      'list configmaps',
      'patch configmap',
      'json patch configmap',
      'delete configmap',
      'watch configmaps',
      'create service',
      'service status.loadBalancer',
      'pod status',
      'delete pod answers the pod',
      'create nodeport service',
      'taken clusterIP refused',
      'list services',
      'delete service',
      'apps/v1 deployment patched',
    ]
  );
  // What the client saw is what the server holds.
  const np = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/services/py-np`);
  const spec = (np.body as { spec: { clusterIP: string; ports: { nodePort: number }[] } }).spec;
  const step = steps.find((s) => s.step === 'create nodeport service');
  assert.equal(spec.clusterIP, step?.['clusterIP']);
  assert.equal(spec.ports[0]?.nodePort, step?.['nodePort']);
  assert.equal(
    (await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/services/py-svc`)).status,
    404,
    'deleted through the client'
  );
  const lb = steps.find((s) => s.step === 'service status.loadBalancer')?.['loadBalancer'];
  assert.deepEqual(lb, { ingress: null });
  const pod = steps.find((s) => s.step === 'pod status');
  assert.deepEqual([pod?.['phase'], pod?.['qosClass']], ['Pending', 'Guaranteed']);
  const watched = steps.find((s) => s.step === 'watch configmaps')?.['events'] as string[];
  assert.deepEqual(watched, ['ADDED py-cm', 'MODIFIED py-cm', 'MODIFIED py-cm', 'DELETED py-cm']);
});
