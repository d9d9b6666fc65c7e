// The documentation's own invariants: the README stays a front page, and every link between the
// pages (README.md, docs/, deploy/README.md) reaches a file and, with a #fragment, a heading of it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { markdownSection, readRepoFile, repoRoot } from './docs.js';

const pages = [
  'README.md',
  'deploy/README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The anchors of a page's headings as GitHub and Forgejo make them (duplicates get -1, -2...). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('README.md is a front page of at most 200 lines', () => {
  const lines = readRepoFile('README.md').split('\n').length - 1;
  assert.ok(lines <= 200, `README.md has ${lines} lines; move reference text to docs/`);
});

test('README.md keeps the two commands CI and newcomers rely on', () => {
  const readme = readRepoFile('README.md');
  assert.match(readme, /^make run\b/m);
  assert.match(readme, /^make test\b/m);
});

test('every relative link of the documentation reaches a file and a heading', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const text = readRepoFile(page);
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, fragment] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(repoRoot, file))) {
        broken.push(`${page}: ${target} (no file ${file})`);
        continue;
      }
      if (fragment && file.endsWith('.md') && !anchors(readRepoFile(file)).has(fragment)) {
        broken.push(`${page}: ${target} (no heading #${fragment} in ${file})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('markdownSection: a ## section with its ### subsections, up to the next ##', () => {
  const md = '# t\n## a\nx\n### b\ny\n## c\nz\n';
  assert.equal(markdownSection(md, 'a'), '## a\nx\n### b\ny');
  assert.equal(markdownSection(md, 'c'), '## c\nz\n');
  assert.equal(markdownSection(md, 'b'), undefined);
});
