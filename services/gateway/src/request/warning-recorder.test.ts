// The warning limits (spec "Limits": webhook warnings; upstream filters/warning_test.go), row by
// row: what the client gets in its Warning headers for what was added.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WarningRecorder } from './warning-recorder.js';

const s = (n: number, c = 'a'): string => c.repeat(n);

const rows: { name: string; add: string[]; want: string[] }[] = [
  { name: 'nothing added: no header', add: [], want: [] },
  { name: 'an empty warning is dropped', add: [''], want: [] },
  { name: 'warnings go out in order', add: ['first', 'second'], want: ['first', 'second'] },
  { name: 'a repeated warning goes out once', add: ['x', 'y', 'x'], want: ['x', 'y'] },
  {
    name: 'a single warning over 256 characters is kept whole while the total is within 4096',
    add: [s(1000)],
    want: [s(1000)],
  },
  {
    name: 'warnings totalling exactly 4096 characters all go out whole',
    add: [s(2048, 'a'), s(2048, 'b')],
    want: [s(2048, 'a'), s(2048, 'b')],
  },
  {
    name: 'passing 4096 in total truncates every warning over 256 characters, earlier ones too',
    add: [s(3000, 'a'), s(1100, 'b'), 'short'],
    want: [s(256, 'a'), s(256, 'b'), 'short'],
  },
  {
    name: 'one warning over 4096 characters is truncated to 256',
    add: [s(5000)],
    want: [s(256)],
  },
  {
    name: 'once 4096 characters are written while truncating, further warnings are dropped',
    // 17 distinct 300-character warnings: the 14th passes 4096 whole (13 × 300 = 3900); then
    // each is 256, and 16 × 256 = 4096 reaches the limit, so the 17th is dropped.
    add: Array.from({ length: 17 }, (_, i) => s(300, String.fromCharCode(65 + i))),
    want: Array.from({ length: 16 }, (_, i) => s(256, String.fromCharCode(65 + i))),
  },
  {
    name: 'truncation counts code points, never splitting a character',
    add: [s(300, '€'), s(4000, 'é'), s(300, '😀')],
    want: [s(256, '€'), s(256, 'é'), s(256, '😀')],
  },
];

for (const row of rows) {
  test(`warning limits: ${row.name}`, () => {
    const r = new WarningRecorder();
    for (const w of row.add) r.add(w);
    assert.deepEqual(r.warnings, row.want);
  });
}
