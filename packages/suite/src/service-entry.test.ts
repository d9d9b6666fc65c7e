import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
  assertBundlesFresh,
  bundleInputsFile,
  bundleStaleness,
  nodeServices,
  serviceEntry,
} from './service-entry.js';

describe('service bundles', () => {
  let repo: string;
  const at = (seconds: number): Date => new Date(seconds * 1000);

  /** A repository whose gateway bundle holds `inputs`, written at time 100. */
  async function bundled(inputs: string[]): Promise<void> {
    await writeFile(serviceEntry(repo, 'gateway'), '// bundle\n');
    await writeFile(bundleInputsFile(repo, 'gateway'), JSON.stringify(inputs));
    await utimes(serviceEntry(repo, 'gateway'), at(100), at(100));
  }

  before(async () => {
    repo = await mkdtemp(join(tmpdir(), 'orch-bundles-'));
    for (const s of nodeServices)
      await mkdir(join(repo, 'services', s, 'dist'), { recursive: true });
    await mkdir(join(repo, 'packages', 'x', 'dist'), { recursive: true });
    await writeFile(join(repo, 'packages', 'x', 'dist', 'a.js'), '');
    await utimes(join(repo, 'packages', 'x', 'dist', 'a.js'), at(50), at(50));
  });
  after(() => rm(repo, { recursive: true, force: true }));

  it('starts each service from services/<name>/dist/main.bundle.js', () => {
    assert.equal(
      serviceEntry('/r', 'storage'),
      join('/r', 'services', 'storage', 'dist', 'main.bundle.js')
    );
  });

  it('finds a missing bundle', () => {
    assert.match(bundleStaleness(repo, 'storage') ?? '', /storage.*main\.bundle\.js is missing/);
  });

  it('finds a bundle newer than every module in it fresh', async () => {
    await bundled(['packages/x/dist/a.js']);
    assert.equal(bundleStaleness(repo, 'gateway'), undefined);
  });

  it('finds a bundle older than a module in it stale, naming the module', async () => {
    await bundled(['packages/x/dist/a.js']);
    await utimes(join(repo, 'packages', 'x', 'dist', 'a.js'), at(200), at(200));
    assert.match(bundleStaleness(repo, 'gateway') ?? '', /older than packages\/x\/dist\/a\.js$/);
    await utimes(join(repo, 'packages', 'x', 'dist', 'a.js'), at(50), at(50));
  });

  it('finds a bundle whose module is gone stale', async () => {
    await bundled(['packages/x/dist/a.js', 'packages/x/dist/gone.js']);
    assert.match(bundleStaleness(repo, 'gateway') ?? '', /packages\/x\/dist\/gone\.js.*is gone/);
  });

  it('refuses to start stale bundles, naming the command that builds them', () => {
    assert.throws(() => assertBundlesFresh(repo), /run `make build`/);
  });
});
