// The shared suites of the integration and end-to-end tiers. The runner (scripts/test.mjs)
// starts at most two for a run, one without the controllers and one with them, each by
// startSharedSuite, and passes each one's layout file (its home's suite.json) to the test
// processes in an environment variable; sharedSuite() in a test file answers a Suite over it.
// A file run alone (`node --test x.test.js`) has no such variable and gets a private suite,
// which its stop() stops.
//
// A test on a shared suite must not depend on a pristine cluster: its own namespaces and
// names, and cluster-scoped objects that change behaviour for others (webhook configurations,
// admission policies, CRDs, RBAC bindings) removed in after(). Fault tests (kill, restart, an
// outage) and suites with flags of their own keep a private one (startSuite), or start only a
// gateway with their flags on the shared backends (startGateway).
import { readFileSync } from 'node:fs';
import { pkiAt, startSuite, suiteOf } from './suite.js';
import type { Suite, SuiteLayout } from './suite.js';
import { refuseInUnitTier } from './test-tier.js';

export interface SharedSuiteOptions {
  /** The suite with the controllers (default: the one without). */
  controllers?: boolean;
}

/** The variable holding the layout file of the shared suite of each kind. */
export function sharedSuiteEnv(opts: SharedSuiteOptions = {}): string {
  return opts.controllers ? 'ORCH_SHARED_SUITE_CONTROLLERS' : 'ORCH_SHARED_SUITE';
}

/**
 * The shared suites, and the private suite sharedSuite() starts without one: two gateways (for
 * the tests across gateways), the certificates service (one start for every file that writes
 * CSRs; a private suite leaves it out), and controllers started again when they exit (a lost
 * lease on a loaded machine), since no test owns the shared suite's processes.
 */
function sharedSuiteFlags(opts: SharedSuiteOptions) {
  const controllers = opts.controllers ?? false;
  return { controllers, certificates: true, gateways: 2, restartControllers: controllers };
}

/**
 * The runner's shared suite of this kind, or a private one when the runner started none (its
 * stop() then stops it; on the shared one stop() does nothing). Process control (kill,
 * restart, stopAdmission, ...) throws on the shared one: fault tests need a private suite.
 */
export async function sharedSuite(opts: SharedSuiteOptions = {}): Promise<Suite> {
  refuseInUnitTier('the shared suite');
  const file = process.env[sharedSuiteEnv(opts)];
  if (file === undefined || file === '') return startSuite(sharedSuiteFlags(opts));
  const layout = JSON.parse(readFileSync(file, 'utf8')) as SuiteLayout;
  if (layout.controllers !== (opts.controllers ?? false)) {
    throw new Error(
      `${file}: not the shared suite ${opts.controllers ? 'with' : 'without'} controllers`
    );
  }
  return suiteOf(layout, undefined, pkiAt(layout.pkiDir), () => Promise.resolve());
}

/**
 * Starts the shared suite of this kind for a test run (the runner calls it), answering it and
 * the layout file to pass in {@link sharedSuiteEnv}; the caller stops it after the run.
 */
export async function startSharedSuite(
  opts: SharedSuiteOptions = {}
): Promise<{ suite: Suite; layoutFile: string }> {
  const suite = await startSuite(sharedSuiteFlags(opts));
  return { suite, layoutFile: `${suite.layout.home}/suite.json` };
}
