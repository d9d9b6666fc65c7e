// A worker of the test runner (scripts/test.mjs starts a few per tier, with IPC): it asks the runner for a
// file, runs it as one suite named after its path, and asks for the next when that suite ends;
// the runner answers null when none is left. What `node --test` would spend per file (a Node
// process, and loading the same modules again: the harness, the API model) is paid once per
// worker. Files run one after another: the root suite runs its suites in turn,
// and a file's hooks (before, after, beforeEach) stay inside its own suite.
//
// Run by hand: `node --test-reporter=spec scripts/test-worker.mjs` needs the runner's IPC; use
// `node --test <file>` to run one file alone.
import { after, describe, test } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

if (!process.send) {
  process.stderr.write(
    'test-worker.mjs is started by scripts/test.mjs (it takes files over IPC)\n'
  );
  process.exit(2);
}

/** How long a worker may stay up after its last file before its open handles count as a leak. */
const leakGraceMs = 60_000;

process.on('message', (file) => {
  if (file === null) {
    process.disconnect();
    // The test runner prints its totals when the event loop drains. Something a file left
    // running (a timer that retries, a socket) would keep this worker, and so the tier, up
    // forever: after the grace, say what is still open and fail instead of hanging. Unref'd, so
    // that a worker that drains exits at once.
    setTimeout(() => {
      const open = new Map();
      for (const r of process.getActiveResourcesInfo()) open.set(r, (open.get(r) ?? 0) + 1);
      const list = [...open].map(([r, n]) => `${r} ×${n}`).join(', ');
      process.stderr.write(
        `test worker: still running ${leakGraceMs / 1000} s after its last file; a test left ` +
          `something open (active resources, this check's own timer included: ${list}). Failing.\n`
      );
      process.exit(1);
    }, leakGraceMs).unref();
    return;
  }
  describe(file, async () => {
    after(() => process.send('next'));
    try {
      await import(pathToFileURL(resolve(file)).href);
    } catch (err) {
      // Counted as a failed test, as `node --test` counts a file that throws while loading.
      test('loads', () => {
        throw err;
      });
    }
  });
});
process.send('next');
