// What the root CA publisher writes (k8s rootcacertpublisher syncNamespace: data exactly
// `ca.crt`, the description annotation present) and --root-ca-file's reading (k8s readCA).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throwawayPki } from '@orch/testing';
import { readCa } from '../config.js';
import {
  description,
  descriptionAnnotation,
  publishedConfigMap,
} from './root-ca-cert-publisher.js';

const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const cm = (data: Record<string, string>, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kube-root-ca.crt', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  data,
});

test('root CA ConfigMap: up to date when its data is exactly ca.crt and it has a description', () => {
  assert.equal(
    publishedConfigMap(cm({ 'ca.crt': ca }, { [descriptionAnnotation]: 'x' }), ca),
    undefined
  );
});

test('root CA ConfigMap: other data, an extra key or no description is rewritten; other annotations kept', () => {
  const rows = [
    cm({ 'ca.crt': 'old' }, { [descriptionAnnotation]: description }),
    cm({ 'ca.crt': ca, extra: '1' }, { [descriptionAnnotation]: description }),
    cm({ 'ca.crt': ca }, { mine: 'kept' }),
  ];
  for (const row of rows) {
    const next = publishedConfigMap(row, ca) as { metadata: { annotations: object }; data: object };
    assert.deepEqual(next.data, { 'ca.crt': ca });
    assert.equal(
      (next.metadata.annotations as Record<string, string>)[descriptionAnnotation],
      description
    );
  }
  const kept = publishedConfigMap(rows[2]!, ca) as {
    metadata: { annotations: Record<string, string> };
  };
  assert.equal(kept.metadata.annotations['mine'], 'kept');
});

test('--root-ca-file: a PEM bundle is read as is; a file without certificates is refused', async () => {
  const pki = await throwawayPki();
  try {
    assert.equal(readCa(pki.caFile), pki.caCertPem);
  } finally {
    await pki.cleanup();
  }
  const dir = mkdtempSync(join(tmpdir(), 'orch-root-ca-'));
  writeFileSync(join(dir, 'bad.crt'), 'not a certificate');
  assert.throws(() => readCa(join(dir, 'bad.crt')), {
    message: `error parsing root-ca-file at ${join(dir, 'bad.crt')}: data does not contain any valid RSA or ECDSA certificates`,
  });
});
