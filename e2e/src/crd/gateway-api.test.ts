// Published CRDs whose schemas carry CEL rules (real CRDs, real writes refused by a CEL rule):
// Gateway API's Gateway, HTTPRoute and GRPCRoute (kubernetes-sigs/gateway-api v1.6.1, standard
// channel), applied with kubectl as published, only the CRDs' own apiVersion changed. The routes
// need has() on an indexed element and cel-go's regex cost to load. Its rules are the project's
// (list-map listeners, exists_one, has() on optional fields, regex on addresses), accepted when
// the CRD is written (compile and cost estimate), then run on every write: a valid Gateway is
// stored, and each invalid one is refused with the rule's own message at its field.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'crds');
const dir = mkdtempSync(join(tmpdir(), 'orch-gateway-api-'));
const gateways = '/apis/gateway.networking.k8s.io/v1/namespaces/default/gateways';

const gateway = (name: string, listeners: string): string => `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: { name: ${name}, namespace: default }
spec:
  gatewayClassName: example
  listeners: ${listeners}
`;

describe("Gateway API's published Gateway CRD and its CEL rules", () => {
  let suite: Suite;
  const kubectl = (args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

  before(async () => {
    suite = await sharedSuite({ controllers: true });
    for (const plural of ['gateways', 'httproutes', 'grpcroutes']) {
      const crd = join(fixtures, `${plural}.gateway.networking.k8s.io.yaml`);
      const r = await kubectl(['apply', '-f', crd]);
      assert.equal(r.code, 0, r.stderr);
      const established = await kubectl([
        'wait',
        '--for=condition=Established',
        '--timeout=30s',
        `crd/${plural}.gateway.networking.k8s.io`,
      ]);
      assert.equal(established.code, 0, established.stderr);
    }
    await waitFor(
      'gateways served',
      async () => (await suite.request(0, 'GET', gateways)).status === 200,
      { timeoutMs: 20_000, intervalMs: 50 }
    );
  });
  after(async () => {
    await suite?.stop();
  });

  it('a valid Gateway is stored, with the schema defaults', async () => {
    const r = await kubectl(
      ['apply', '-f', '-'],
      gateway(
        'web',
        '[{name: http, port: 80, protocol: HTTP}, {name: http-alt, port: 8080, protocol: HTTP}]'
      )
    );
    assert.equal(r.code, 0, r.stderr);
    const got = (await suite.request(0, 'GET', `${gateways}/web`)).body as any;
    assert.deepEqual(
      got.spec.listeners.map((l: any) => [l.name, l.port, l.protocol]),
      [
        ['http', 80, 'HTTP'],
        ['http-alt', 8080, 'HTTP'],
      ]
    );
    // allowedRoutes defaults to routes from the same namespace.
    assert.deepEqual(got.spec.listeners[0].allowedRoutes, { namespaces: { from: 'Same' } });
  });

  const refused: [string, string, RegExp][] = [
    [
      'tls on an HTTP listener',
      '[{name: http, port: 80, protocol: HTTP, tls: {mode: Terminate, certificateRefs: [{name: c}]}}]',
      /spec\.listeners: Invalid value: "array": tls must not be specified for protocols \['HTTP', 'TCP', 'UDP'\]/,
    ],
    [
      'a TLS listener without a tls mode',
      '[{name: tls, port: 443, protocol: TLS, hostname: a.example}]',
      /spec\.listeners: Invalid value: "array": tls mode must be set for protocol TLS/,
    ],
    [
      'two listeners on one port, protocol and hostname',
      '[{name: a, port: 80, protocol: HTTP}, {name: b, port: 80, protocol: HTTP}]',
      /spec\.listeners: Invalid value: "array": Combination of port, protocol and hostname must be unique for each listener/,
    ],
    [
      'a hostname on a TCP listener',
      '[{name: tcp, port: 9000, protocol: TCP, hostname: a.example}]',
      /spec\.listeners: Invalid value: "array": hostname must not be specified for protocols \['TCP', 'UDP'\]/,
    ],
  ];
  it('HTTPRoute: a valid route is stored; a path the rules refuse is refused with their message', async () => {
    const route = (name: string, path: string): string => `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: { name: ${name}, namespace: default }
spec:
  parentRefs: [{name: web}]
  rules: [{matches: [{path: {type: PathPrefix, value: "${path}"}}], backendRefs: [{name: svc, port: 80}]}]
`;
    const ok = await kubectl(['apply', '-f', '-'], route('ok', '/api'));
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await kubectl(['create', '-f', '-'], route('bad', '/a//b'));
    assert.notEqual(bad.code, 0, bad.stdout);
    assert.match(bad.stderr, /must not contain '\/\/' when type one of \['Exact', 'PathPrefix'\]/);
    const routes = '/apis/gateway.networking.k8s.io/v1/namespaces/default/httproutes';
    assert.equal((await suite.request(0, 'GET', `${routes}/bad`)).status, 404);
  });

  it('GRPCRoute: a method with invalid characters is refused by its regex rule', async () => {
    const route = (name: string, method: string): string => `
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: { name: ${name}, namespace: default }
spec:
  parentRefs: [{name: web}]
  rules: [{matches: [{method: {service: echo.Echo, method: "${method}"}}]}]
`;
    const ok = await kubectl(['apply', '-f', '-'], route('ok', 'Say'));
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await kubectl(['create', '-f', '-'], route('bad', 'Say-Hi'));
    assert.notEqual(bad.code, 0, bad.stdout);
    assert.match(bad.stderr, /method must only contain valid characters/);
  });

  for (const [what, listeners, message] of refused) {
    it(`refuses ${what} with the rule's message, storing nothing`, async () => {
      const r = await kubectl(['create', '-f', '-'], gateway('bad', listeners));
      assert.notEqual(r.code, 0, r.stdout);
      assert.match(r.stderr, message);
      assert.equal((await suite.request(0, 'GET', `${gateways}/bad`)).status, 404);
    });
  }
});
