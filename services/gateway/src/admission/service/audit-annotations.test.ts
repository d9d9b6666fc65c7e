// The audit annotations admission plugins make reach the request's audit event: PodSecurity's
// audit mode (audit-violations), a ValidatingAdmissionPolicy binding's Audit action
// (validation_failure) and a webhook's own auditAnnotations (`<webhook name>/<key>`), carried from
// the admission service (the shared suite's) over gRPC and written into `annotations` of the
// audit log of a gateway in this process: a gateway of its own because --audit-log-path is a
// flag the suite's gateways do not have. What it creates matches only its own namespace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reviewResponse, sharedSuite, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, WebhookServer } from '@orch/testing';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { newGatewayConfig } from '../../config.js';
import { gatewayOptions } from '../../options.js';
import { GatewayServer } from '../../server.js';
import { suiteGatewayArgs } from '../../suite-gateway-args.js';

const ns = 'audit-annotations';
const label = { 'audit-annotations.test.orch.io/owner': ns };
const ar = '/apis/admissionregistration.orch.io/v1';
const webhookName = 'audit.hooks.example.com';

let suite: Suite;
let hooks: WebhookServer;
let gateway: Awaited<ReturnType<typeof startInBackground>> & { port: number };
let dir = '';
let auditLog = '';

interface Answer {
  status: number;
  text: string;
  auditId: string;
}

function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const admin = suite.pki.file('admin');
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, `https://127.0.0.1:${gateway.port}`),
      {
        method,
        ca: readFileSync(suite.pki.caFile),
        cert: readFileSync(admin.certFile),
        key: readFileSync(admin.keyFile),
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            auditId: String(res.headers['audit-id'] ?? ''),
          })
        );
      }
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Creates; the request's audit ID. */
async function created(path: string, body: unknown): Promise<string> {
  const r = await call('POST', path, body);
  assert.equal(r.status, 201, r.text);
  return r.auditId;
}

interface AuditEvent {
  auditID: string;
  annotations?: Record<string, string>;
}

/** The audit event of a request, waited for until written. */
async function eventOf(auditId: string): Promise<AuditEvent> {
  let event: AuditEvent | undefined;
  await waitFor(
    `the audit event ${auditId}`,
    async () => {
      const text = await readFile(auditLog, 'utf8');
      event = text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as AuditEvent)
        .find((e) => e.auditID === auditId);
      return event !== undefined;
    },
    { timeoutMs: 10_000 }
  );
  return event!;
}

before(async () => {
  suite = await sharedSuite();
  hooks = await startWebhookServer((c) => ({
    body: reviewResponse(c.body, { allowed: true, auditAnnotations: { checked: 'by-hook' } }),
  }));
  dir = await mkdtemp(join(tmpdir(), 'orch-audit-annotations-'));
  auditLog = join(dir, 'audit.log');
  const options = gatewayOptions([
    '--secure-port=0',
    ...suiteGatewayArgs(suite),
    '--authorization-mode=AlwaysAllow',
    `--audit-log-path=${auditLog}`,
    // No controllers make the namespace's default ServiceAccount (as the suite's gateways).
    '--disable-admission-plugins=ServiceAccount',
  ]);
  gateway = (await startInBackground(
    new GatewayServer(await newGatewayConfig(options, createLogger('test-gateway')))
  )) as typeof gateway;
  await created('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns, labels: { ...label, 'pod-security.orch.io/audit': 'restricted' } },
  });
  const onlyHere = { matchLabels: label };
  const configMapRule = {
    apiGroups: [''],
    apiVersions: ['v1'],
    operations: ['CREATE'],
    resources: ['configmaps'],
  };
  await created(`${ar}/validatingwebhookconfigurations`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: ns },
    webhooks: [
      {
        name: webhookName,
        clientConfig: { url: hooks.url('/audit'), caBundle: hooks.caBundle },
        rules: [configMapRule],
        namespaceSelector: onlyHere,
        sideEffects: 'None',
        failurePolicy: 'Ignore',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  await created(`${ar}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: ns },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [configMapRule], namespaceSelector: onlyHere },
      validations: [{ expression: "!has(object.data) || !('forbidden' in object.data)" }],
    },
  });
  await created(`${ar}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: ns },
    spec: { policyName: ns, validationActions: ['Audit'] },
  });
});

after(async () => {
  if (gateway) {
    await call('DELETE', `${ar}/validatingwebhookconfigurations/${ns}`);
    await call('DELETE', `${ar}/validatingadmissionpolicybindings/${ns}`);
    await call('DELETE', `${ar}/validatingadmissionpolicies/${ns}`);
    await call('DELETE', `/api/v1/namespaces/${ns}`);
    await gateway.stop();
  }
  await hooks?.stop();
  await suite?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('admission audit annotations in the audit log', () => {
  it("a policy's Audit action (validation_failure) and a webhook's auditAnnotations (<webhook>/<key>) are in the create's audit event", async () => {
    // The admission service's informers see the new webhook and policy a little later: each
    // try creates a ConfigMap of its own until one's event carries both.
    let n = 0;
    let event: AuditEvent | undefined;
    await waitFor(
      'a ConfigMap create audited with both annotations',
      async () => {
        const id = await created(`/api/v1/namespaces/${ns}/configmaps`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${n++}` },
          data: { forbidden: 'yes' },
        });
        event = await eventOf(id);
        const a = event.annotations ?? {};
        return (
          a[`${webhookName}/checked`] !== undefined &&
          a['validation.policy.admission.orch.io/validation_failure'] !== undefined
        );
      },
      { timeoutMs: 60_000, intervalMs: 250 }
    );
    const a = event!.annotations!;
    assert.equal(a[`${webhookName}/checked`], 'by-hook');
    const failures = JSON.parse(a['validation.policy.admission.orch.io/validation_failure']!);
    assert.deepEqual(failures, [
      {
        message: "failed expression: !has(object.data) || !('forbidden' in object.data)",
        policy: ns,
        binding: ns,
        expressionIndex: 0,
        validationActions: ['Audit'],
      },
    ]);
  });

  it('PodSecurity audit mode: the violations of a Pod the namespace audits as restricted are in its audit event', async () => {
    const id = await created(`/api/v1/namespaces/${ns}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'loose' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] },
    });
    const event = await eventOf(id);
    const violations = event.annotations?.['pod-security.orch.io/audit-violations'];
    assert.ok(violations, JSON.stringify(event));
    assert.match(
      violations,
      /would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/
    );
  });
});
