// The examples of docs/admission.md, used as they stand: the admission configuration file, the
// ImagePolicyWebhook configuration and kubeconfig (only the backend's host and port, and the
// /etc/orch/admission/ directory, are replaced by the loopback backend and a temp directory), the
// pod, the ImageReview the plugin must send for it, the backend's denial and the resulting message.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';

import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { createLogger } from '@orch/component-base/logs';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';
import { parse as parseYaml } from 'yaml';

import {
  pluginConfigurations,
  readAdmissionConfiguration,
} from '../admission-configuration/index.js';
import type { AdmissionRequest } from '../interfaces.js';
import { parseImagePolicyConfig } from './image-policy-config.js';
import type { ImagePolicyWebhook } from './image-policy-webhook.js';
import { newImagePolicyWebhook } from './image-policy-webhook.js';

const docPath = new URL('../../../../docs/admission.md', import.meta.url);
const doc = readFileSync(docPath, 'utf8');

/** The doc's code blocks marked `file=<name>`, by name. */
function examples(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of doc.matchAll(/```\w+ file=(\S+)\n([\s\S]*?)```/g)) {
    out.set(m[1] ?? '', m[2] ?? '');
  }
  return out;
}

describe('docs/admission.md examples', () => {
  let dir: string;
  let server: Server;
  let port: number;
  const received: { body: any; cn: string | undefined; url: string }[] = [];
  const files = examples();
  const file = (name: string): string => {
    const text = files.get(name);
    assert.ok(text !== undefined, `docs/admission.md has an example file=${name}`);
    return text;
  };
  let plugin: ImagePolicyWebhook | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-admission-docs-'));
    const ca = await createCertificateAuthority({ commonName: 'docs-backend-ca' });
    const serving = await issueCertificate(ca, {
      commonName: 'image-policy-backend',
      ipAddresses: ['127.0.0.1'],
      usages: ['server'],
    });
    const client = await issueCertificate(ca, { commonName: 'orch-admission', usages: ['client'] });
    server = createServer(
      { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          received.push({
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            cn: peer.subject?.CN as string | undefined,
            url: req.url ?? '',
          });
          res.setHeader('Content-Type', 'application/json');
          res.end(file('image-review-denied.json'));
        });
      }
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    for (const [name, text] of files) {
      await writeFile(
        join(dir, name),
        text
          .replaceAll('/etc/orch/admission/', `${dir}/`)
          .replaceAll('image-policy.example:8443', `127.0.0.1:${port}`)
      );
    }
    await writeFile(join(dir, 'backend-ca.pem'), ca.certPem);
    await writeFile(join(dir, 'admission-client.pem'), client.certPem);
    await writeFile(join(dir, 'admission-client-key.pem'), client.keyPem);
  });

  after(async () => {
    plugin?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('the configuration by path, the kubeconfig, the review request, the denial and its message', async () => {
    const configs = pluginConfigurations(
      await readAdmissionConfiguration(join(dir, 'admission-configuration.yaml'), [
        'ImagePolicyWebhook',
      ])
    );
    plugin = newImagePolicyWebhook({
      config: configs.get('ImagePolicyWebhook'),
      log: createLogger('docs-test', 'error'),
    });
    assert.equal(plugin.config.allowTtlMs, 50_000);
    assert.equal(plugin.config.defaultAllow, true);

    const pod = parseYaml(file('pod.yaml')) as ApiObject;
    const req: AdmissionRequest = {
      operation: 'CREATE',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: '',
      namespace: 'team-a',
      name: 'web',
      userInfo: { name: 'alice', uid: '', groups: [], extra: {} },
      object: pod,
      oldObject: undefined,
      options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' },
      dryRun: false,
    };
    const ctx = {
      signal: new AbortController().signal,
      warn: () => undefined,
      annotate: () => undefined,
    };
    await assert.rejects(plugin.validate!(req, ctx), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.code, 403);
      assert.equal(err.status.message, file('denial-message.txt').trim());
      return true;
    });
    assert.equal(received.length, 1);
    assert.deepEqual(received[0]!.body, JSON.parse(file('image-review-request.json')));
    assert.equal(received[0]!.url, '/review');
    assert.equal(received[0]!.cn, 'orch-admission');
  });

  it('the inline configuration starts the plugin with the same backend', async () => {
    const configs = pluginConfigurations(
      await readAdmissionConfiguration(join(dir, 'admission-configuration-inline.yaml'), [
        'ImagePolicyWebhook',
      ])
    );
    const p = newImagePolicyWebhook({
      config: configs.get('ImagePolicyWebhook'),
      log: createLogger('docs-test', 'error'),
    });
    p.close();
    assert.deepEqual(p.config, {
      kubeConfigFile: join(dir, 'image-policy-backend.kubeconfig'),
      allowTtlMs: 50_000,
      denyTtlMs: 50_000,
      retryBackoffMs: 500,
      defaultAllow: false,
    });
  });

  it('the quoted bounds error is the one the plugin gives', () => {
    const quoted =
      'imagePolicy.allowTTL: Invalid value: 3600: valid value is between 1s and 30m0s, got 1h0m0s';
    assert.ok(doc.includes(quoted));
    assert.throws(
      () => parseImagePolicyConfig({ imagePolicy: { kubeConfigFile: 'k', allowTTL: 3600 } }),
      (err: unknown) => err instanceof Error && err.message === quoted
    );
  });
});
