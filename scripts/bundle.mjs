#!/usr/bin/env node
// Bundles each service's compiled entry point (services/<name>/dist/main.js, from `tsc --build`)
// with the modules it imports into one file, services/<name>/dist/main.bundle.js, with a source
// map beside it. The launcher (`make run`, the test suites), the image and the manifests start
// the bundle: a service then loads one file instead of about a thousand, which takes about a
// third off the CPU a gateway spends before it serves (docs/development.md has the figures).
//
//   node scripts/bundle.mjs           every service whose bundle is older than its sources
//                                     (make build runs it after tsc; so does scripts/test.mjs)
//   node scripts/bundle.mjs gateway   the named ones
//   node scripts/bundle.mjs --force   rebuild even the fresh ones
//
// Beside each bundle, main.bundle.inputs.json lists the modules in it, so that a bundle older
// than one of them is found stale (@orch/suite's bundleStaleness; the test harness refuses to
// start a stale one).
//
// A bundled CommonJS module that finds files beside itself (`__dirname`: grpc-js's and the
// health service's .proto files) is given its own directory, relative to the bundle, so that it
// still finds them in node_modules, and so does a bundle moved with the tree (the image).
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { bundleInputsFile, bundleStaleness, nodeServices, serviceEntry } = await import(
  pathToFileURL(join(repo, 'packages', 'suite', 'dist', 'service-entry.js')).href
);
const force = process.argv.includes('--force');
const names = process.argv.slice(2).filter((a) => a !== '--force');
for (const name of names) {
  if (!nodeServices.includes(name)) {
    throw new Error(`no service ${name}; one of ${nodeServices.join(', ')}`);
  }
}

/** `__dirname` and `__filename` of a bundled CommonJS file, as paths relative to the bundle. */
const ownDirectory = (outDir) => ({
  name: 'own-directory',
  setup(b) {
    b.onLoad({ filter: /\.c?js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!/\b__(?:dirname|filename)\b/.test(text)) return undefined;
      const dir = JSON.stringify(relative(outDir, dirname(args.path)));
      const file = JSON.stringify(relative(outDir, args.path));
      return {
        contents:
          `var __dirname = __bundleRelative(${dir}), __filename = __bundleRelative(${file});\n` +
          text,
        loader: 'js',
      };
    });
  },
});

const banner = [
  "import { createRequire as __createRequire } from 'node:module';",
  "import { dirname as __pathDirname, join as __pathJoin } from 'node:path';",
  "import { fileURLToPath as __fileURLToPath } from 'node:url';",
  'const require = __createRequire(import.meta.url);',
  'const __bundleDir = __pathDirname(__fileURLToPath(import.meta.url));',
  'const __bundleRelative = (p) => __pathJoin(__bundleDir, p);',
].join('\n');

const started = Date.now();
const todo = (names.length > 0 ? names : nodeServices).filter(
  (name) => force || bundleStaleness(repo, name) !== undefined
);
await Promise.all(
  todo.map(async (name) => {
    const outDir = join(repo, 'services', name, 'dist');
    const result = await build({
      absWorkingDir: repo,
      entryPoints: [join(outDir, 'main.js')],
      outfile: serviceEntry(repo, name),
      metafile: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      banner: { js: banner },
      plugins: [ownDirectory(outDir)],
      logLevel: 'warning',
    });
    const inputs = Object.keys(result.metafile.inputs).filter((i) => !i.includes(':'));
    await writeFile(bundleInputsFile(repo, name), `${JSON.stringify(inputs, null, 1)}\n`);
  })
);
if (todo.length > 0) console.log(`bundled ${todo.join(', ')} in ${Date.now() - started} ms`);
