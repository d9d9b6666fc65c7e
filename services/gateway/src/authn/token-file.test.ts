import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsvLine, parseTokenFile } from './token-file.js';

test('token file: quoted group lists, optional groups, comments and blank lines', () => {
  const m = parseTokenFile(
    '# comment\nt1,alice,u1,"a,b , c"\n\nt2,bob,u2\nt3,"carol, jr",u3,solo\n'
  );
  assert.deepEqual(m.get('t1'), { name: 'alice', uid: 'u1', groups: ['a', 'b', 'c'], extra: {} });
  assert.deepEqual(m.get('t2'), { name: 'bob', uid: 'u2', groups: [], extra: {} });
  assert.deepEqual(m.get('t3')?.name, 'carol, jr');
  assert.deepEqual(m.get('t3')?.groups, ['solo']);
  assert.deepEqual(parseCsvLine('a,"b ""q"" c",d'), ['a', 'b "q" c', 'd']);
});

test('token file: bad rows name their line', () => {
  assert.throws(() => parseTokenFile('t1,alice'), /line 1: want at least 3 columns/);
  assert.throws(() => parseTokenFile('t1,alice,u\nt1,bob,u'), /line 2: duplicate token/);
  assert.throws(() => parseTokenFile('t1,"alice,u'), /line 1: unterminated/);
  assert.throws(() => parseTokenFile(',alice,u'), /line 1: token and user name/);
});
