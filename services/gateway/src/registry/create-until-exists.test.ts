// The objects that exist from the start: created through their Store however long storage
// refuses (the pause doubling to its cap), AlreadyExists counting as done, stopped only by the
// signal; and the /readyz post-start hook check that is not ready until they exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newAlreadyExists } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import { postStartHookCheck } from '../health/post-start-hook-check.js';
import { ensureSystemNamespaces } from './core/namespaces/ensure-system-namespaces.js';
import { createUntilExists } from './create-until-exists.js';

/** A store whose creates fail `failures` times, then succeed (or say AlreadyExists for `existing`). */
function flakyStore(failures: number, existing: string[] = []) {
  const created: string[] = [];
  let calls = 0;
  return {
    created,
    get calls() {
      return calls;
    },
    create(_ctx: unknown, obj: ApiObject): Promise<ApiObject> {
      calls++;
      if (calls <= failures) return Promise.reject(new Error('storage unavailable'));
      const name = obj.metadata.name ?? '';
      if (existing.includes(name))
        return Promise.reject(newAlreadyExists({ group: '', resource: 'namespaces' }, name));
      created.push(name);
      return Promise.resolve(obj);
    },
  };
}

function recordingLog(): Logger & { warnings: Record<string, unknown>[] } {
  const warnings: Record<string, unknown>[] = [];
  const log: Logger & { warnings: Record<string, unknown>[] } = {
    warnings,
    debug: () => undefined,
    info: () => undefined,
    warn: (_m, f) => void warnings.push(f ?? {}),
    error: () => undefined,
    child: () => log,
  };
  return log;
}

test('system namespaces: created after more refusals than the 60 s the gateway used to give up after', async () => {
  const store = flakyStore(75, ['orch-public']);
  const log = recordingLog();
  const done = await ensureSystemNamespaces(store, log, undefined, { firstMs: 0, maxMs: 0 });
  assert.equal(done, true);
  assert.deepEqual(store.created, ['default', 'orch-system'], 'orch-public already existed');
  assert.equal(log.warnings.length, 75, 'one warning per refusal');
});

test('the pause doubles from the first to its cap', async () => {
  const log = recordingLog();
  const obj = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } };
  await createUntilExists(flakyStore(6), [obj], 'thing', log, undefined, { firstMs: 1, maxMs: 8 });
  assert.deepEqual(
    log.warnings.map((w) => w['retryInMs']),
    [1, 2, 4, 8, 8, 8]
  );
});

test('stopped by the signal: false, nothing more tried', async () => {
  const stop = new AbortController();
  const store = flakyStore(Number.MAX_SAFE_INTEGER);
  const log = recordingLog();
  const running = ensureSystemNamespaces(store, log, stop.signal, { firstMs: 5, maxMs: 5 });
  await new Promise((r) => setTimeout(r, 20));
  stop.abort();
  assert.equal(await running, false);
  const calls = store.calls;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(store.calls, calls);
});

test('/readyz/poststarthook/<name> fails with "not finished" until the work is done', async () => {
  let done = false;
  const check = postStartHookCheck('start-system-namespaces-controller', () => done);
  assert.equal(check.name, 'poststarthook/start-system-namespaces-controller');
  await assert.rejects(async () => check.check(), /not finished/);
  done = true;
  await check.check();
});
