// Starts a described suite: its files first (the cluster PKI, kept if it exists, and the
// kubeconfigs), then its processes stage by stage through a launcher.
import { mkdir } from 'node:fs/promises';
import { ensureClusterPki, writeKubeconfig } from '@orch/component-base/pki';
import type { ClusterPki } from '@orch/component-base/pki';
import type { SuiteDescription } from './describe-suite.js';
import type { Launcher } from './launcher.js';
import { assertBundlesFresh } from './service-entry.js';

/** Writes what the processes read: the PKI (reused when present) and the kubeconfigs. */
export async function writeSuiteFiles(d: SuiteDescription): Promise<ClusterPki> {
  await mkdir(d.logDir, { recursive: true });
  await mkdir(d.etcdDataDir, { recursive: true, mode: 0o700 });
  const pki = await ensureClusterPki(d.pkiDir);
  for (const k of Object.values(d.kubeconfigs)) {
    await writeKubeconfig(k.path, {
      server: k.server,
      caFile: pki.caFile,
      ...pki.file(k.cert),
      user: k.user,
    });
  }
  return pki;
}

/**
 * Writes the suite's files and starts its stages with `launcher`. On failure the processes
 * already started keep running: the caller stops the launcher (it may also retry on
 * `LaunchError.portInUse` with a new description).
 */
export async function launchSuite(d: SuiteDescription, launcher: Launcher): Promise<ClusterPki> {
  assertBundlesFresh(d.repoRoot);
  const pki = await writeSuiteFiles(d);
  await launcher.startStages(d.stages);
  return pki;
}
