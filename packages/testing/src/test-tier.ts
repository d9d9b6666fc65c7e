// The runner's tiers (scripts/test.mjs): it sets ORCH_TEST_TIER to the tier it runs, and in the
// unit tier every way of the harness to start a process refuses, so a test file that starts
// processes but was classified unit fails loudly instead of slowing the unit tier down.

/** The variable the runner sets to `unit`, `integration` or `e2e`. */
export const testTierEnv = 'ORCH_TEST_TIER';

/** Throws when the runner runs the unit tier; `what` names the process, for the message. */
export function refuseInUnitTier(what: string): void {
  if (process.env[testTierEnv] === 'unit') {
    throw new Error(
      `a unit test may not start processes (${what}): the runner (scripts/test.mjs) classifies ` +
        'a file that imports the harness (startSuite, sharedSuite, startGateway, startEtcd, ' +
        'startNats, spawnBackend) as integration'
    );
  }
}
