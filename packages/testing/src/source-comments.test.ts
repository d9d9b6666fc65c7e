// No comment of the sources carries the history of the work (the tracker's numbers, the names of
// the stages it was done in): comments say why, commit messages carry the history. A finding is
// printed as path:line with its text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { comments, historyComments, historyInComments, sourceFiles } from './source-comments.js';

test('no source comment carries the history of the work', () => {
  const files = sourceFiles(['packages', 'services', 'e2e', 'bench', 'scripts']);
  assert.ok(files.length > 100, `only ${files.length} source files found`);
  const found = historyComments(files).map((f) => `${f.path}:${f.line}: ${f.text} (${f.names})`);
  assert.deepEqual(found, [], `comments naming history:\n${found.join('\n')}`);
});

test('comments: only comments, with their lines, whatever strings and regexes hold', () => {
  const text = [
    "const url = `${'https'}://example/issue 12`; // a comment",
    "const re = /\\/\\/ issue 13/; const s = '// issue 14';",
    '/* block',
    '   issue 15 */',
    'function f(): void {',
    '  // last',
    '}',
  ].join('\n');
  assert.deepEqual(comments(text), [
    { line: 1, text: '// a comment' },
    { line: 3, text: '/* block\n   issue 15 */' },
    { line: 6, text: '// last' },
  ]);
});

test('the rule: what it finds and what it leaves', () => {
  const named = (comment: string): string[] =>
    historyInComments.filter((h) => h.pattern.test(comment)).map((h) => h.names);
  assert.deepEqual(named('// as issue 12 asked'), ['an issue number']);
  assert.deepEqual(named('// see #13'), ['an issue number']);
  assert.deepEqual(named('// the platform kinds (issue 18, plat)'), [
    'an issue number',
    'a work batch',
  ]);
  assert.deepEqual(named('// the flake of earlier sessions'), ['a work session']);
  assert.deepEqual(named('// stop 14 left it'), ['a stop of the work']);
  assert.deepEqual(
    named(
      '// HTTP/2 sessions get GOAWAY; batch/v1 Jobs; realistic-objects-plat.ts; the next batch'
    ),
    []
  );
  assert.deepEqual(named("// color '#123' and &#39;"), []);
});
