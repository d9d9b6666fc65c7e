// There is one list of admission plugin names: a plugin's name is written as a string literal
// only in the list (plugins.ts) and once in the plugin's own module, which exports it and
// registers the plugin; everything else imports it or derives from the list. The test reads
// the non-test sources of every workspace. A few names also name something else (a built-in
// kind such as ServiceAccount, the authorization mode AlwaysDeny): those are looked for only in
// the admission code, where they would name the plugin.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtinResources } from '../registry/index.js';
import { allOrderedPlugins } from './plugins.js';

const root = resolve(fileURLToPath(import.meta.url), '../../../../..');
const listModule = 'packages/apimachinery/src/admission/plugins.ts';
const workspaces = ['packages', 'services'];

/** Names that also mean something else outside admission. */
const otherMeanings = new Set<string>([...builtinResources.map((r) => r.kind), 'AlwaysDeny']);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated' && entry.name !== 'node_modules' && entry.name !== 'dist')
        out.push(...sources(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      out.push(path);
    }
  }
  return out;
}

function allSources(): string[] {
  const out: string[] = [];
  for (const w of workspaces) {
    for (const pkg of readdirSync(join(root, w), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      const src = join(root, w, pkg.name, 'src');
      try {
        out.push(...sources(src));
      } catch {
        // a workspace without src/
      }
    }
  }
  return out;
}

const isAdmissionCode = (file: string): boolean =>
  file.startsWith('services/admission/') || file.includes('/admission/');

const literal = (name: string): RegExp => new RegExp(`(['"\`])${name}\\1`);
const declaration = (name: string): RegExp =>
  new RegExp(`^export const \\w*[pP]luginName = '${name}' satisfies \\w+;$`);

test('one list: plugin names are written only in the list and in each plugin’s own module', () => {
  const files = allSources().map((f) => relative(root, f).split('\\').join('/'));
  assert.ok(files.includes(listModule), `${listModule} is read`);
  const stray: string[] = [];
  const declared = new Map<string, string[]>();
  // Compiled once: the loop below runs on every line of every source.
  const patterns = allOrderedPlugins.map((name) => ({
    name,
    quoted: literal(name),
    declares: declaration(name),
  }));
  for (const file of files) {
    if (file === listModule) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const registers = /^export function register\(/m.test(text);
    text.split('\n').forEach((line, i) => {
      for (const { name, quoted, declares } of patterns) {
        if (!quoted.test(line)) continue;
        if (registers && declares.test(line.trim())) {
          declared.set(name, [...(declared.get(name) ?? []), file]);
          continue;
        }
        if (otherMeanings.has(name) && !isAdmissionCode(file)) continue;
        stray.push(`${file}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(stray, [], 'plugin names written outside the list and their own modules');
  for (const name of allOrderedPlugins) {
    assert.equal(
      declared.get(name)?.length,
      1,
      `${name}: declared by one plugin module (found: ${declared.get(name)?.join(', ') ?? 'none'})`
    );
  }
});
