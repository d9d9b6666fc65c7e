// A gateway of its own on a running suite's backends (storage, NATS, the authorizer, the
// admission and certificates services), for a test of a gateway flag: one process to start
// instead of a private suite. Its flags follow the suite's gateway flags, as @orch/suite's
// gatewayProcess describes them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminCertName, adminUserName, writeKubeconfig } from '@orch/component-base/pki';
import {
  LaunchError,
  Launcher,
  assertBundlesFresh,
  freePort,
  gatewayProcess,
  registerTempDir,
  serviceAccountAdmissionOff,
  unregisterTempDir,
} from '@orch/suite';
import type { AuthorizationMode } from '@orch/suite';
import { suiteOf } from './suite.js';
import type { Suite } from './suite.js';
import { refuseInUnitTier } from './test-tier.js';

export interface StartGatewayOptions {
  /** Flags after the suite's (a later flag wins); a function gets the suite's PKI. */
  args?: string[] | ((pki: Suite['pki']) => string[]);
  /** Default RBAC, answered by the suite's authorizer. */
  authorizationMode?: AuthorizationMode;
}

const attempts = 3;

/**
 * Starts one gateway with `opts.args` on `suite`'s backends and answers a Suite whose only
 * gateway (index 0: `gateways[0]`, `kubeconfigs[0]`, `request(0, ...)`) is the new one; the
 * rest (etcd, NATS, the PKI, the ports) is `suite`'s. Its stop() stops the new gateway only;
 * process control on it throws, as on a shared suite.
 */
export async function startGateway(suite: Suite, opts: StartGatewayOptions = {}): Promise<Suite> {
  refuseInUnitTier('a gateway');
  const layout = suite.layout;
  assertBundlesFresh(layout.repoRoot);
  const dir = await mkdtemp(join(tmpdir(), 'orch-gateway-'));
  registerTempDir(dir);
  const launcher = new Launcher({ logDir: dir });
  const args = typeof opts.args === 'function' ? opts.args(suite.pki) : (opts.args ?? []);
  const cleanup = async (): Promise<void> => {
    await launcher.stop();
    await rm(dir, { recursive: true, force: true });
    unregisterTempDir(dir);
  };
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const name = `gateway-${port}`;
      const url = `https://127.0.0.1:${port}`;
      try {
        await launcher.startStage([
          gatewayProcess({
            repoRoot: layout.repoRoot,
            pkiDir: layout.pkiDir,
            natsUrl: layout.natsUrl,
            storage: layout.storage,
            authorizer: layout.authorizer,
            admission: layout.admission,
            ...(layout.certificates === undefined ? {} : { certificates: layout.certificates }),
            name,
            port,
            url,
            authorizationMode: opts.authorizationMode ?? 'RBAC',
            args: [...args, ...(layout.controllers ? [] : serviceAccountAdmissionOff(args))],
          }),
        ]);
      } catch (err) {
        if (err instanceof LaunchError && err.portInUse && attempt < attempts) {
          await launcher.get(name)?.stop('SIGKILL');
          continue;
        }
        throw err;
      }
      const kubeconfig = join(dir, 'admin.kubeconfig');
      await writeKubeconfig(kubeconfig, {
        server: url,
        caFile: suite.pki.caFile,
        ...suite.pki.file(adminCertName),
        user: adminUserName,
      });
      const gateway = launcher.get(name)!;
      const own = suiteOf(
        {
          ...layout,
          gateways: [url],
          kubeconfigs: [kubeconfig],
          processNames: [...layout.processNames, name],
        },
        undefined,
        suite.pki,
        cleanup
      );
      return {
        ...own,
        logTail: (n, lines) => (n === name ? gateway.logTail(lines) : suite.logTail(n, lines)),
        pid: (n) => (n === name ? gateway.pid : suite.pid(n)),
      };
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
}
