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

process.on('message', (file) => {
  if (file === null) {
    process.disconnect();
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
