#!/usr/bin/env node
// The runner behind `make test`: every compiled test file (`dist/**/*.test.js`) under packages/,
// services/ and e2e/, run by `node --test` one file at a time (integration tests start real
// etcd and NATS; one at a time keeps them within two cores). The exit code is node's.
//
//   node scripts/test.mjs          all tests
//   node scripts/test.mjs --unit   only packages/
//
// Expects a build (`npx tsc --build`, or `make test` which builds first).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--unit');
if (unknown.length > 0) {
  process.stderr.write(
    `usage: node scripts/test.mjs [--unit]\nunknown argument: ${unknown.join(' ')}\n`
  );
  process.exit(2);
}
const roots = args.includes('--unit') ? ['packages'] : ['packages', 'services', 'e2e'];

const files = roots
  .map((root) => join(repo, root))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => findTests(dir, false))
  .map((file) => relative(repo, file))
  .sort();

process.stdout.write(
  `${files.length} test file${files.length === 1 ? '' : 's'} in ${roots.join(', ')}\n`
);
if (files.length === 0) {
  process.stderr.write('no compiled tests found: build first (npx tsc --build, or make test)\n');
  process.exit(1);
}

const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files], {
  cwd: repo,
  stdio: 'inherit',
});
// Ctrl-C reaches the test process too (same process group); wait for it rather than dying first.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.once('error', (err) => {
  process.stderr.write(`cannot run node --test: ${err.message}\n`);
  process.exit(1);
});
child.once('exit', (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});

/** Files named `*.test.js` below a `dist` directory under `dir`; node_modules is skipped. */
function findTests(dir, inDist) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...findTests(path, inDist || entry.name === 'dist'));
    } else if (inDist && entry.isFile() && entry.name.endsWith('.test.js')) {
      out.push(path);
    }
  }
  return out;
}
