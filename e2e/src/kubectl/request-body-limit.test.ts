// kubectl sending a body over --max-request-body-bytes (3 MiB, upstream's default): it reads the
// 413 Status, as against kube-apiserver, over HTTP/2 and over HTTP/1.1 (client-go's
// DISABLE_HTTP2), rather than a broken pipe or a reset stream; nothing is stored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-body-limit-'));
const ns = 'kubectl-body-limit';

const kubectl = (args: string[], env?: NodeJS.ProcessEnv) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, undefined, env);

/** A file holding a ConfigMap of `mib` MiB of data. */
function bigConfigMap(name: string, mib: number): string {
  const file = join(dir, `${name}.yaml`);
  const data = 'x'.repeat(mib * 1024 * 1024);
  writeFileSync(
    file,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n  a: ${data}\n`
  );
  return file;
}

before(async () => {
  suite = await sharedSuite();
  const r = await kubectl(['create', 'namespace', ns]);
  assert.equal(r.code, 0, r.stderr);
});

after(async () => {
  await suite.stop();
});

const h1 = { ...process.env, DISABLE_HTTP2: '1' };
// Over HTTP/2 the stream is reset after the answer. Over HTTP/1.1 the rest of a 4 MiB body is
// read and dropped; 10 MiB is more than twice the limit: the connection is closed after the answer.
for (const [protocol, env, mib] of [
  ['HTTP/2', undefined, 4],
  ['HTTP/2', undefined, 10],
  ['HTTP/1.1', h1, 4],
  ['HTTP/1.1', h1, 10],
] as const) {
  test(`kubectl create -f of a ${mib} MiB ConfigMap over ${protocol} reads the 413`, async () => {
    const name = `big-${protocol === 'HTTP/2' ? 'h2' : 'h1'}-${mib}`;
    // -v=6: client-go logs each request with its status code (and, with DISABLE_HTTP2, that
    // HTTP/2 is off), so the protocol and the answer are both seen.
    const r = await kubectl(['create', '-f', bigConfigMap(name, mib), '-v=6'], env);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(RequestEntityTooLarge\)/, r.stderr.slice(-2000));
    assert.match(r.stderr, /POST https:\S+\/configmaps\S* 413 /);
    assert.doesNotMatch(r.stderr, /broken pipe|stream error|connection reset/);
    if (env) assert.match(r.stderr, /HTTP2 has been explicitly disabled/);
    else assert.doesNotMatch(r.stderr, /HTTP2 has been explicitly disabled/);
    const get = await kubectl(['-n', ns, 'get', 'configmap', name]);
    assert.match(get.stderr, /NotFound/);
  });
}
