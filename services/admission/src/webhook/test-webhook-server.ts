// A real webhook backend for the tests: Node HTTPS on loopback with its own CA (from the PKI
// helpers), serving certificates for localhost, 127.0.0.1 and `hook.webhooks.svc`, asking
// for (not requiring) client certificates. Each path is one behaviour (allow, mutate, deny,
// time out, answer garbage, the wrong uid, convert a custom resource, ...); every request is
// recorded.
/* eslint-disable @typescript-eslint/no-explicit-any -- test support: reviews are read as the wire JSON they are */
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';

import type { KeyPairPem } from '@orch/component-base/pki';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';

export interface RecordedCall {
  path: string;
  headers: IncomingMessage['headers'];
  review: any;
  /** CN of the client certificate, when one was presented and verified. */
  clientCN: string | undefined;
  /** The client's port: the same for calls over one kept-alive connection. */
  remotePort: number | undefined;
}

export interface TestWebhookServer {
  port: number;
  ca: KeyPairPem;
  /** A CA that did not sign the server certificate. */
  otherCa: KeyPairPem;
  /** A client certificate signed by the server's client CA. */
  clientCert: KeyPairPem;
  calls: RecordedCall[];
  callsTo(path: string): RecordedCall[];
  close(): Promise<void>;
}

function b64(obj: unknown): string {
  return Buffer.from(JSON.stringify(obj)).toString('base64');
}

type Reply = { status?: number; raw?: string; review?: unknown } | 'hang';

function answer(path: string, review: any): Reply {
  const version: string = review?.apiVersion ?? 'admission.orch.io/v1';
  const uid: string = review?.request?.uid ?? '';
  const ok = (response: Record<string, unknown>): Reply => ({
    review: { apiVersion: version, kind: 'AdmissionReview', response: { uid, ...response } },
  });
  const obj = review?.request?.object;
  switch (path) {
    case '/convert': {
      // A custom resource conversion webhook: each object at the desired version, spec.size
      // (v1) and spec.replicas (v2) swapped, and a label naming the version converted to.
      const request = review?.request ?? {};
      const desired: string = request.desiredAPIVersion ?? '';
      const convertedObjects = (request.objects ?? []).map((o: any) => {
        const { size, replicas, ...rest } = o.spec ?? {};
        const count = size ?? replicas;
        const spec = desired.endsWith('/v2')
          ? { ...rest, replicas: count }
          : { ...rest, size: count };
        const labels = { ...(o.metadata?.labels ?? {}), 'converted-to': desired.split('/')[1] };
        return { ...o, apiVersion: desired, metadata: { ...o.metadata, labels }, spec };
      });
      return {
        review: {
          apiVersion: review?.apiVersion,
          kind: 'ConversionReview',
          response: { uid: request.uid, result: { status: 'Success' }, convertedObjects },
        },
      };
    }
    case '/':
    case '/allow':
      return ok({ allowed: true });
    case '/mutate': {
      const ops = obj?.metadata?.labels
        ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'by-webhook' }]
        : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'by-webhook' } }];
      return ok({ allowed: true, patchType: 'JSONPatch', patch: b64(ops) });
    }
    case '/count': {
      // Adds one to the label `count` (0 when absent): every call changes the object.
      const n = Number(obj?.metadata?.labels?.count ?? '0') + 1;
      const ops = [
        {
          op: 'add',
          path: '/metadata/labels',
          value: { ...(obj?.metadata?.labels ?? {}), count: String(n) },
        },
      ];
      return ok({ allowed: true, patchType: 'JSONPatch', patch: b64(ops) });
    }
    case '/empty-patch':
      return ok({ allowed: true, patchType: 'JSONPatch', patch: b64([]) });
    case '/patch-no-type':
      return ok({
        allowed: true,
        patch: b64([{ op: 'add', path: '/metadata/labels/untyped', value: 'yes' }]),
      });
    case '/merge-patch':
      return ok({
        allowed: true,
        patchType: 'JSONMergePatch',
        patch: b64({ metadata: { labels: { x: 'y' } } }),
      });
    case '/kind-change':
      return ok({
        allowed: true,
        patchType: 'JSONPatch',
        patch: b64([{ op: 'replace', path: '/kind', value: 'Service' }]),
      });
    case '/no-object':
      return ok({
        allowed: true,
        patchType: 'JSONPatch',
        patch: b64([{ op: 'replace', path: '', value: null }]),
      });
    case '/invalid-object':
      return ok({
        allowed: true,
        patchType: 'JSONPatch',
        patch: b64([
          { op: 'replace', path: '/spec/containers', value: 'not a list' },
          { op: 'add', path: '/spec/notAField', value: 1 },
        ]),
      });
    case '/unknown-field':
      return ok({
        allowed: true,
        patchType: 'JSONPatch',
        patch: b64([
          { op: 'add', path: '/spec/notAField', value: 1 },
          { op: 'add', path: '/metadata/labels/kept', value: 'yes' },
        ]),
      });
    case '/bad-patch':
      return ok({
        allowed: true,
        patchType: 'JSONPatch',
        patch: b64([{ op: 'remove', path: '/spec/missing/deeper' }]),
      });
    case '/deny':
      return ok({ allowed: false, status: { code: 418, message: 'pods may not be named "bad"' } });
    case '/deny-bare':
      return ok({ allowed: false });
    case '/deny-reason':
      return ok({ allowed: false, status: { reason: 'NotAcceptable', code: 406 } });
    case '/deny-low-code':
      return ok({ allowed: false, status: { code: 200, message: 'nope' } });
    case '/warn':
      return ok({
        allowed: true,
        warnings: ['plain warning', 'bell\u0007and\nnewline', '\u0001'],
        auditAnnotations: { checked: 'yes' },
      });
    case '/hang':
      return 'hang';
    case '/garbage':
      return { raw: 'this is not {json' };
    case '/status-500':
      return { status: 500, raw: 'backend broke' };
    case '/wrong-uid':
      return {
        review: {
          apiVersion: version,
          kind: 'AdmissionReview',
          response: { uid: 'not-the-uid', allowed: true },
        },
      };
    case '/no-allowed':
      return { review: { apiVersion: version, kind: 'AdmissionReview', response: { uid } } };
    case '/no-response':
      return { review: { apiVersion: version, kind: 'AdmissionReview' } };
    case '/wrong-version':
      return {
        review: {
          apiVersion: version.endsWith('v1') ? 'admission.orch.io/v1beta1' : 'admission.orch.io/v1',
          kind: 'AdmissionReview',
          response: { uid, allowed: true },
        },
      };
    case '/wrong-kind':
      return {
        review: { apiVersion: version, kind: 'TokenReview', response: { uid, allowed: true } },
      };
    default:
      return { status: 404, raw: 'no such path' };
  }
}

export async function startTestWebhookServer(): Promise<TestWebhookServer> {
  const ca = await createCertificateAuthority({ commonName: 'webhook-test-ca' });
  const otherCa = await createCertificateAuthority({ commonName: 'unrelated-ca' });
  const clientCa = await createCertificateAuthority({ commonName: 'webhook-client-ca' });
  const serving = await issueCertificate(ca, {
    commonName: 'webhook',
    dnsNames: ['localhost', 'hook.webhooks.svc'],
    ipAddresses: ['127.0.0.1'],
    usages: ['server'],
  });
  const clientCert = await issueCertificate(clientCa, {
    commonName: 'orch-admission',
    usages: ['client'],
  });
  const calls: RecordedCall[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(
    {
      key: serving.keyPem,
      cert: serving.certPem,
      ca: [clientCa.certPem],
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let review: any;
        try {
          review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          review = undefined;
        }
        const socket = req.socket as TLSSocket;
        const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
        const path = req.url ?? '/';
        const cn: string | string[] | undefined = peer?.subject?.CN;
        calls.push({
          path,
          headers: req.headers,
          review,
          clientCN: Array.isArray(cn) ? cn[0] : cn,
          remotePort: socket.remotePort,
        });
        const reply = answer(path, review);
        if (reply === 'hang') {
          hanging.add(res);
          return;
        }
        const body = reply.raw ?? JSON.stringify(reply.review);
        res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
        res.end(body);
      });
    }
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ca,
    otherCa,
    clientCert,
    calls,
    callsTo: (path) => calls.filter((c) => c.path === path),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
