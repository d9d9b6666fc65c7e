// Webhook conversion with the real clients: kubectl applies a CRD whose kind is
// served at v1 `spec.size: "3"` (storage) and v2 `spec.replicas: 3`, converted by a real HTTPS
// webhook (ConversionReview v1) that the gateway reaches by its service name through
// --webhook-service-addresses; kubectl writes at v2 and reads either version by
// `<plural>.<version>.<group>`, client-node lists at v2, and a refusal by the webhook reaches
// kubectl with upstream's message. An admission webhook registered for v2 alone (matchPolicy
// Equivalent) is sent a v1 write converted by the same conversion webhook, which the admission
// service reaches through its webhook configuration's serviceAddresses.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { reviewResponse, startSuite, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, WebhookCall, WebhookServer } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-crd-conversion-'));
const group = 'convert.example.com';
type Obj = Record<string, any>;

/**
 * The webhook: v1 size (a string) ⇄ v2 replicas (an integer); a size not a number is refused.
 * On /admit, an admission webhook refusing names that start with `deny-`.
 */
function convertReview(call: WebhookCall): { body: unknown } {
  const review = call.body as Obj;
  if (call.path === '/admit') {
    const name = String(review.request?.object?.metadata?.name ?? '');
    return {
      body: reviewResponse(
        review,
        name.startsWith('deny-')
          ? { allowed: false, status: { message: `sprocket ${name} is refused at v2` } }
          : { allowed: true }
      ),
    };
  }
  const { uid, desiredAPIVersion, objects } = review.request;
  const out: Obj[] = [];
  for (const o of objects as Obj[]) {
    if (desiredAPIVersion === `${group}/v2`) {
      const replicas = Number(o.spec?.size);
      if (!Number.isInteger(replicas)) {
        const message = `spec.size ${JSON.stringify(o.spec?.size)} is not a number`;
        return {
          body: { ...review, response: { uid, result: { status: 'Failure', message } } },
        };
      }
      out.push({ ...o, apiVersion: desiredAPIVersion, spec: { replicas } });
    } else {
      out.push({ ...o, apiVersion: desiredAPIVersion, spec: { size: String(o.spec?.replicas) } });
    }
  }
  return {
    body: {
      apiVersion: review.apiVersion,
      kind: 'ConversionReview',
      response: { uid, result: { status: 'Success' }, convertedObjects: out },
    },
  };
}

const crdYaml = (caBundle: string) => `
apiVersion: apiextensions.orch.io/v1
kind: CustomResourceDefinition
metadata:
  name: sprockets.${group}
spec:
  group: ${group}
  names: { plural: sprockets, singular: sprocket, kind: Sprocket }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { size: { type: string } } }
    - name: v2
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { replicas: { type: integer } } }
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        service: { namespace: hooks, name: convert, path: /convert }
        caBundle: ${caBundle}
`;

describe('webhook conversion with kubectl and client-node', () => {
  let suite: Suite;
  let hook: WebhookServer;
  const kubectl = (args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

  before(async () => {
    hook = await startWebhookServer(convertReview, { dnsNames: ['convert.hooks.svc'] });
    const admissionConfig = join(dir, 'admission.yaml');
    writeFileSync(
      admissionConfig,
      `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
- name: ValidatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.orch.io/v1
    kind: WebhookAdmissionConfiguration
    serviceAddresses:
      "convert.hooks.svc:443": "127.0.0.1:${hook.port}"
`
    );
    suite = await startSuite({
      controllers: true,
      gatewayArgs: [`--webhook-service-addresses=convert.hooks.svc:443=127.0.0.1:${hook.port}`],
      admissionArgs: [`--admission-control-config-file=${admissionConfig}`],
    });
    const r = await kubectl(['apply', '-f', '-'], crdYaml(hook.caBundle));
    assert.equal(r.code, 0, r.stderr);
    const established = await kubectl([
      'wait',
      '--for=condition=Established',
      '--timeout=30s',
      `crd/sprockets.${group}`,
    ]);
    assert.equal(established.code, 0, established.stderr);
    await waitFor(
      'v2 served',
      async () =>
        (await suite.request(0, 'GET', `/apis/${group}/v2/namespaces/default/sprockets`)).status ===
        200,
      { timeoutMs: 20_000, intervalMs: 50 }
    );
  });
  after(async () => {
    await suite?.stop();
    await hook?.stop();
  });

  it('kubectl writes at v2 and reads each version in its own shape', async () => {
    const made = await kubectl(
      ['apply', '-f', '-'],
      `apiVersion: ${group}/v2\nkind: Sprocket\nmetadata: { name: a, namespace: default }\nspec: { replicas: 3 }\n`
    );
    assert.equal(made.code, 0, made.stderr);
    const v1 = await kubectl(['get', `sprockets.v1.${group}`, 'a', '-o', 'jsonpath={.spec}']);
    assert.equal(v1.code, 0, v1.stderr);
    assert.deepEqual(JSON.parse(v1.stdout), { size: '3' });
    const v2 = await kubectl(['get', `sprockets.v2.${group}`, 'a', '-o', 'jsonpath={.spec}']);
    assert.equal(v2.code, 0, v2.stderr);
    assert.deepEqual(JSON.parse(v2.stdout), { replicas: 3 });
    assert.ok(hook.calls.length >= 2, 'the webhook converted the write and the v2 read');
  });

  it('client-node lists at v2 what was written at v1', async () => {
    const made = await kubectl(
      ['apply', '-f', '-'],
      `apiVersion: ${group}/v1\nkind: Sprocket\nmetadata: { name: b, namespace: default }\nspec: { size: "5" }\n`
    );
    assert.equal(made.code, 0, made.stderr);
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(suite.kubeconfigs[0]!);
    const api = kc.makeApiClient(k8s.CustomObjectsApi);
    const list = (await api.listNamespacedCustomObject({
      group,
      version: 'v2',
      namespace: 'default',
      plural: 'sprockets',
    })) as Obj;
    assert.deepEqual(
      list.items.map((i: Obj) => [i.apiVersion, i.metadata.name, i.spec]),
      [
        [`${group}/v2`, 'a', { replicas: 3 }],
        [`${group}/v2`, 'b', { replicas: 5 }],
      ]
    );
  });

  it("a webhook's refusal reaches kubectl with upstream's message; v1 still reads", async () => {
    const made = await kubectl(
      ['apply', '-f', '-'],
      `apiVersion: ${group}/v1\nkind: Sprocket\nmetadata: { name: odd, namespace: default }\nspec: { size: many }\n`
    );
    assert.equal(made.code, 0, made.stderr);
    const refused = await kubectl(['get', `sprockets.v2.${group}`, 'odd']);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /conversion webhook for convert\.example\.com\/v1, Kind=Sprocket failed: spec\.size "many" is not a number/
    );
    const v1 = await kubectl([
      'get',
      `sprockets.v1.${group}`,
      'odd',
      '-o',
      'jsonpath={.spec.size}',
    ]);
    assert.equal(v1.stdout, 'many', v1.stderr);
  });

  it('matchPolicy Equivalent: an admission webhook for v2 sprockets is sent a v1 write converted by the conversion webhook, and its refusal reaches kubectl', async () => {
    const config = await kubectl(
      ['apply', '-f', '-'],
      `apiVersion: admissionregistration.orch.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: sprockets-v2 }
webhooks:
- name: sprockets-v2.convert.example.com
  clientConfig: { url: "${hook.url('/admit')}", caBundle: ${hook.caBundle} }
  rules:
  - { operations: [CREATE], apiGroups: [${group}], apiVersions: [v2], resources: [sprockets] }
  sideEffects: None
  admissionReviewVersions: [v1]
`
    );
    assert.equal(config.code, 0, config.stderr);
    const sprocket = (name: string) =>
      `apiVersion: ${group}/v1\nkind: Sprocket\nmetadata: { name: ${name}, namespace: default }\nspec: { size: "4" }\n`;
    let seen: WebhookCall | undefined;
    await waitFor(
      'the v2 admission webhook is called for a v1 sprocket',
      async () => {
        const name = `eq-${Math.random().toString(36).slice(2, 8)}`;
        const made = await kubectl(['create', '-f', '-'], sprocket(name));
        assert.equal(made.code, 0, made.stderr);
        seen = hook.callsTo('/admit').find((c) => (c.body as Obj).request?.name === name);
        return seen !== undefined;
      },
      { timeoutMs: 20_000, intervalMs: 300 }
    );
    const request = (seen!.body as Obj).request as Obj;
    assert.deepEqual(request.kind, { group, version: 'v2', kind: 'Sprocket' });
    assert.deepEqual(request.requestKind, { group, version: 'v1', kind: 'Sprocket' });
    assert.equal(request.object.apiVersion, `${group}/v2`);
    assert.deepEqual(request.object.spec, { replicas: 4 });
    const denied = await kubectl(['create', '-f', '-'], sprocket('deny-me'));
    assert.notEqual(denied.code, 0);
    assert.match(
      denied.stderr,
      /admission webhook "sprockets-v2\.convert\.example\.com" denied the request: sprocket deny-me is refused at v2/
    );
  });
});
