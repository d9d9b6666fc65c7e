import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ClusterPki, EnsureClusterPkiOptions } from '@orch/component-base/pki';
import { ensureClusterPki } from '@orch/component-base/pki';

import { registerTempDir, unregisterTempDir } from '@orch/suite';

export interface ThrowawayPki extends ClusterPki {
  /** Removes the PKI directory. */
  cleanup(): Promise<void>;
}

/** A complete cluster PKI in a fresh temporary directory (removed by `cleanup()` or on exit). */
export async function throwawayPki(opts?: EnsureClusterPkiOptions): Promise<ThrowawayPki> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  registerTempDir(dir);
  const pki = await ensureClusterPki(dir, opts);
  return {
    ...pki,
    async cleanup() {
      await rm(dir, { recursive: true, force: true });
      unregisterTempDir(dir);
    },
  };
}
